"""GLPK and CBC get the whole time left, never less: CBC's ``-sec`` takes it as a real number
(in wall-clock seconds), glpsol's ``--tmlim`` takes whole seconds and is rounded up, and the
session kills the solver process at the deadline, a ``timeout``. Real processes on a model
neither can finish: a market split (Cornuejols and Dawande 1999), tiny to write and read,
infeasible and slow to prove so by branch and bound. HiGHS gets the time left after Pyomo's
translation of the model into it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.backends import get_backend
from bench.backends.base import SolveOptions, whole_seconds
from bench.backends.cbc import Cbc
from bench.backends.glpk import Glpk
from bench.backends.kinds import MipModel
from bench.instance import read_instance
from bench.registry import get_formulation
from bench.solve import solve
from tests.conftest import INSTANCES, ROOT

#: a limit with a fraction of a second, which a limit rounded down to whole seconds loses
LIMIT = 2.9
#: what a solve may stop short of the limit (none: the solver's own clock starts after the
#: session's, and a loaded machine only delays it; a margin for the clocks) and run past it
#: (killing and reaping the process on a loaded machine); the first well under the 0.9 s a
#: limit rounded down to whole seconds loses
SHORT_S, PAST_S = 0.25, 2.0


def market_split(rows: int = 4, cols: int = 30, seed: int = 1) -> MipModel:
    """``rows`` equations ``sum a_ij x_j = floor(sum_j a_ij / 2)`` over binary ``x``, ``a_ij``
    drawn from 0..99."""
    import pyomo.environ as pyo

    rng = random.Random(seed)
    mm = MipModel.new()
    m = mm.model
    m.x = pyo.Var(range(cols), domain=pyo.Binary)
    m.rows = pyo.ConstraintList()
    for _ in range(rows):
        a = [rng.randrange(100) for _ in range(cols)]
        m.rows.add(sum(a[j] * m.x[j] for j in range(cols)) == sum(a) // 2)
    return mm


def test_glpk_is_given_whole_seconds_rounded_up():
    cmd = Glpk().command(Path("m.lp"), Path("s.txt"), LIMIT, SolveOptions())
    assert cmd[cmd.index("--tmlim") + 1] == "3"
    assert whole_seconds(2.01) == 3 and whole_seconds(3.0) == 3 and whole_seconds(0.2) == 1


def test_a_limit_beyond_glpsols_int_is_a_real_solve_not_an_error():
    """glpsol refuses a --tmlim past its C int ("Invalid time limit"): a huge limit is capped
    (at about 11.6 days) before the solver is given it."""
    inst = read_instance(str(ROOT / "instances" / "shikaku" / "gen-shikaku-5x5-s1-0.txt"))
    res = solve(inst, get_formulation("shikaku", "mip-cover"), get_backend("glpk"),
                time.perf_counter() + 1e12)
    assert res.status == "solved", res.message


def test_cbc_is_given_the_fraction_in_wall_clock_seconds():
    cmd = Cbc().command(Path("m.lp"), Path("s.txt"), LIMIT, SolveOptions())
    assert float(cmd[cmd.index("-sec") + 1]) == pytest.approx(LIMIT)
    assert cmd[cmd.index("-timeMode") + 1] == "elapsed"
    assert cmd.index("-timeMode") < cmd.index("-solve") and cmd.index("-sec") < cmd.index("-solve")


@pytest.mark.parametrize("backend", [Glpk(), Cbc()], ids=lambda b: b.name)
def test_a_solve_it_cannot_finish_takes_the_whole_limit_and_no_more(backend):
    if backend.available():
        pytest.skip(backend.available())
    session = backend.start(market_split(), SolveOptions())
    t0 = time.perf_counter()
    outcome = session.solve(LIMIT)
    took = time.perf_counter() - t0
    assert outcome.status == "timeout" and outcome.value is None
    assert outcome.stats == {}  # killed: no counts of a search it did not finish
    assert took >= LIMIT - SHORT_S, f"{backend.name} stopped {LIMIT - took:.2f} s early"
    assert took <= LIMIT + PAST_S, f"{backend.name} ran {took - LIMIT:.2f} s past the limit"
    assert outcome.wall_s >= LIMIT - SHORT_S


def test_no_time_left_after_writing_the_lp_file_starts_no_solver():
    outcome = Glpk().start(market_split(), SolveOptions()).solve(0.0)
    assert (outcome.status, outcome.solver_s) == ("timeout", 0.0)


@pytest.mark.slow
def test_the_reviewers_glpk_timeout_had_its_whole_limit():
    """``puzzlebench solve`` on a puzzle GLPK cannot finish in time, through the task process:
    a ``timeout`` whose build and solve took the fractional limit, killed at the deadline
    rather than by the harness. glpsol reads its LP file before its own clock starts, which on
    this model hides much of a rounded-down limit's loss: the model above is the one that
    shows it."""
    inst = INSTANCES / "nurikabe" / "gen-nurikabe-28x28-s2-0.txt"
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(inst), "--formulation",
                        "mip-flow", "--solver", "glpk", "--time-limit", str(LIMIT), "--json"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    out = json.loads(p.stdout)
    assert out["status"] == "timeout", out
    assert "killed by the harness" not in (out["message"] or ""), out
    took = out["build_s"] + out["solve_s"]
    assert took >= LIMIT - SHORT_S, out
    assert took <= LIMIT + PAST_S, out


def test_highs_gets_the_time_left_after_pyomos_translation():
    """HiGHS' limit is what is left once APPSI translated the model (seconds on a large one),
    as SCIP's is: HiGHS, given the whole limit after the translation, ran past the deadline
    by the translation's time. A 50x50 Nurikabe whose translation takes longer than the
    limit: HiGHS' own run is then all but nothing."""
    backend = get_backend("highs")
    if backend.available():
        pytest.skip(backend.available())
    inst = read_instance(str(INSTANCES / "nurikabe" / "sparse" / "gen-nurikabe-50x50-s1-0.txt"))
    session = backend.start(get_formulation("nurikabe", "mip-flow").build(inst), SolveOptions())
    limit = 0.5
    outcome = session.solve(limit)
    translation = outcome.wall_s - outcome.solver_s
    assert translation > limit, "the translation was quicker than the limit: no test"
    assert outcome.status == "timeout"
    assert outcome.solver_s <= 0.3, (f"HiGHS ran {outcome.solver_s:.2f} s after a "
                                     f"{translation:.2f} s translation, past the {limit} s limit")
