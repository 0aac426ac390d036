"""A finished run with error results says how many ended in error in which phase, one example
of each with its message and the `puzzlebench solve` command that runs it alone (which,
run, fails the same way), and that a new --out with --reuse runs them again; a resume refused
over results measured otherwise gives that same way out (bench/run/errors.py,
bench/run/reuse.py)."""

from __future__ import annotations

import dataclasses
import json
import shlex
import subprocess
import sys
from pathlib import Path

from bench.records import Result
from bench.run.errors import error_summary, solve_command
from bench.run.plan import make_plan
from bench.run.reuse import stale
from tests.conftest import ROOT, SHIKAKU_SEEDS, formulation_source, plugin_package

SEED = str(min(SHIKAKU_SEEDS, key=lambda p: p.stat().st_size))

RAISES = formulation_source("SatRaises", "sat-raises",
                            'raise LookupError("no clue at (9, 9)")',
                            description="raises in build")


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)


def test_a_run_with_errors_names_their_phase_and_a_command_that_reproduces_one(
        tmp_path: Path):
    (tmp_path / "plugin").mkdir()
    env = plugin_package(tmp_path / "plugin", "raises-pkg", "0.1", {"sat_raises": RAISES},
                         {"shikaku.sat.sat-raises": "raises_pkg.sat_raises"})
    run = tmp_path / "run"
    res = cli(env, "run", SEED, "--formulation", "sat-raises", "--formulation", "sat-cover",
              "--solver", "cadical195", "--jobs", "1", "--time-limit", "15", "--seed", "3",
              "--memory-limit", "4096", "--out", str(run))
    out = res.stdout.splitlines()
    assert "puzzlebench: 1 task(s) ended in error: 1 in build" in out, res.stdout
    example = next(line for line in out if line.startswith("puzzlebench: error in build, "))
    assert "sat-raises / cadical195: sat-raises: build: LookupError: no clue at (9, 9)" \
        in example
    said = next(line for line in out if "to run it alone: " in line)
    command = said.split("to run it alone: ", 1)[1]
    assert command == shlex.join(["puzzlebench", "solve", SEED, "--formulation", "sat-raises",
                                  "--solver", "cadical195", "--time-limit", "15", "--seed",
                                  "3", "--memory-limit", "4096"])
    assert f"--out NEW_FOLDER --reuse {run} (an error is never reused" in res.stdout

    argv = shlex.split(command)
    assert argv[0] == "puzzlebench"
    alone = cli(env, *argv[1:], "--json")
    assert alone.returncode == 1, alone.stderr
    row = next(json.loads(line) for line in (run / "journal.jsonl").read_text().splitlines()
               if json.loads(line).get("formulation") == "sat-raises")
    assert json.loads(alone.stdout)["message"] == row["message"]
    assert "build: LookupError: no clue at (9, 9)" in row["message"]


def _result(**fields: object) -> Result:
    base = Result(key="sha256:0|f|s|seed=0", puzzle="shikaku", instance="a",
                  instance_path="a b.txt", rows=1, cols=1, formulation="f", kind="sat",
                  solver="s", solver_version="1", status="error", time_limit=20.0)
    return dataclasses.replace(base, **fields)


def test_the_summary_orders_phases_and_the_command_keeps_what_the_task_asked():
    errors = [_result(phase="", message="worker exited with -9"),
              _result(phase="decode", message="f: decode: ValueError"),
              _result(phase="build", message="f: build: KeyError", instance_path="b.txt"),
              _result(phase="build", message="f: build: IndexError", instance_path="a.txt"),
              _result(status="solved")]
    lines = error_summary(errors, "old run")
    assert lines[0].startswith("4 task(s) ended in error: 2 in build, 1 in decode, 1 outside "
                               "the solve")
    assert lines[1].endswith(": f: build: IndexError")  # the first by instance path
    assert lines[-1].startswith("running this command again keeps them")
    assert "--reuse 'old run'" in lines[-1]
    assert error_summary([_result(status="timeout")], "x") == []
    counted = _result(key="sha256:0|f|s|seed=2|count=5|rep=1", seed=2, threads=2)
    assert solve_command(counted) == ("puzzlebench solve 'a b.txt' --formulation f --solver s "
                                      "--time-limit 20 --seed 2 --threads 2 --count 5")
    for limit, typed in ((1234.5678, "1234.5678"), (3_600_000.0, "3600000"), (0.1, "0.1")):
        assert f"--time-limit {typed} " in solve_command(_result(time_limit=limit)) + " "


def test_a_resume_over_results_measured_otherwise_advises_a_new_out_with_reuse(tmp_path):
    planned = make_plan(None, [SEED], formulations=["sat-cover"], solvers=["cadical195"],
                        time_limit=20.0)
    task = planned.plan.tasks[0]
    res = _result(key=task.key, formulation=task.formulation, solver=task.solver,
                  status="solved", identity="other", pinned_cpu=None)
    why = stale([res], [task], pinned=True, folder=tmp_path / "a")
    assert why.endswith(f"run with --out NEW_FOLDER --reuse {tmp_path / 'a'}, which takes the "
                        "results that still match and runs the rest")
