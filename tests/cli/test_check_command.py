"""`puzzlebench check` on bad input: the same argument rules as `run` and `solve`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize("limit", ["-1", "0", "nan", "-5", "inf"])
def test_check_refuses_a_time_limit_that_is_not_a_positive_number(limit):
    p = subprocess.run([sys.executable, "-m", "bench.cli", "check", "cpsat-cover",
                        "--time-limit", limit], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stdout == "", p.stdout  # no check ran
    assert "--time-limit: must be a positive number of seconds" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


def test_check_with_a_solver_that_does_not_take_the_formulation_is_one_line():
    """``--solver`` and the formulation conflict: a bad-input line and exit 2, not a FAIL
    line of a check (the formulation is not at fault) and exit 1."""
    p = subprocess.run([sys.executable, "-m", "bench.cli", "check", "cpsat-cover", "--puzzle",
                        "shikaku", "--solver", "minisat22"], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert (p.returncode, p.stdout) == (2, ""), (p.stdout, p.stderr)
    assert p.stderr == ("puzzlebench: --solver minisat22 does not take cpsat models "
                        "(shikaku/cpsat-cover is a cpsat formulation)\n")


@pytest.mark.parametrize(("name", "extra"), [("nosuchpuzzle:sat-direct", []),
                                             ("sat-direct", ["--puzzle", "nurikabee"])])
def test_check_names_an_unknown_puzzle_not_a_missing_formulation(name, extra):
    p = subprocess.run([sys.executable, "-m", "bench.cli", "check", name, *extra],
                       capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert (p.returncode, p.stdout) == (2, ""), (p.stdout, p.stderr)
    puzzle = name.split(":")[0] if ":" in name else extra[1]
    assert p.stderr.startswith(f"puzzlebench: no puzzle {puzzle!r}"), p.stderr
    assert "known: fillomino, nurikabe" in p.stderr, p.stderr
