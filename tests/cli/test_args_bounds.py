"""The task options' bounds (:mod:`bench.cli.args`) through the real command line: a value no
solver or results table takes is one argparse error line and exit 2, before any task runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.bounds import MAX_INT64, MAX_JOBS, MAX_MEMORY_MB, MAX_RUNS, MAX_SEED
from tests.conftest import ROOT, SHIKAKU_SEEDS


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=300)


#: (option, value, what the error line says)
BAD = [
    ("--seed", "99999999999999999999999", f"must be 0 .. {MAX_SEED}"),
    ("--seed", str(MAX_SEED + 1), f"must be 0 .. {MAX_SEED}"),
    ("--seed", "-1", f"must be 0 .. {MAX_SEED}"),  # HiGHS and SCIP refuse a negative seed
    ("--memory-limit", "99999999999999999999", f"must be 1 .. {MAX_MEMORY_MB}"),
    ("--memory-limit", "0", "must be 1 .."),
    ("--threads", "-1", "must be 1 .."),  # CP-SAT: "invalid model: " with no reason
    ("--threads", "0", "must be 1 .."),  # 0 is "all cores" to CP-SAT, HiGHS and SCIP
    ("--count", "-1", "must be at least 0"),
    # past the 64-bit top the range is named, not "at least 0" (which the value is)
    ("--count", "99999999999999999999", f"must be 0 .. {MAX_INT64}"),
]


@pytest.mark.parametrize("command", ["run", "solve"])
@pytest.mark.parametrize(("option", "value", "says"), BAD)
def test_an_option_out_of_range_is_one_line(tmp_path, command, option, value, says):
    out = ["--out", str(tmp_path / "run")] if command == "run" else []
    p = cli(command, str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", *out,
            option, value)
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    # argparse's usage (its first line "usage:", the rest indented), then one error line
    lines = [x for x in p.stderr.splitlines() if not x.startswith(("usage:", " "))]
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(f"puzzlebench {command}: error: argument {option}: {says}")
    assert lines[0].endswith(f"not {value}")
    assert not (tmp_path / "run").exists()  # nothing ran, no folder made


def test_the_bounds_themselves_are_taken(tmp_path):
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--dry-run",
            "--out", str(tmp_path / "run"), "--seed", str(MAX_SEED), "--memory-limit",
            str(MAX_MEMORY_MB), "--count", "0", "--threads", "1")
    assert p.returncode == 0, p.stderr


def test_the_largest_seed_reaches_a_seeded_solver(tmp_path):
    """CP-SAT takes the largest seed (a 32-bit int): the task solves, it does not error."""
    p = cli("solve", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--json",
            "--seed", str(MAX_SEED), "--time-limit", "30")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["status"] == "solved"


def test_seeds_past_the_largest_seed_are_one_line(tmp_path):
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--out",
            str(tmp_path / "run"), "--seed", str(MAX_SEED - 1), "--seeds", "3")
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.strip() == (f"puzzlebench: --seed {MAX_SEED - 1} --seeds 3 runs seeds up "
                                f"to {MAX_SEED + 1}, past {MAX_SEED} (the largest every "
                                "seeded solver takes)")
    assert not (tmp_path / "run").exists()


#: ``run``'s own counts: (option, value, what the error line says)
RUN_BAD = [
    ("--repeat", str(MAX_RUNS + 1), f"must be 1 .. {MAX_RUNS} (every run of every task is planned"),
    ("--repeat", "99999999999999999999", f"must be 1 .. {MAX_RUNS}"),
    ("--repeat", "0", f"must be 1 .. {MAX_RUNS}"),
    ("--seeds", str(MAX_RUNS + 1), f"must be 1 .. {MAX_RUNS} (every run of every task is planned"),
    ("--seeds", "99999999999999999999", f"must be 1 .. {MAX_RUNS}"),
    ("--jobs", str(MAX_JOBS + 1), f"must be 1 .. {MAX_JOBS} (a process each"),
    ("--jobs", "99999999999999999999", f"must be 1 .. {MAX_JOBS}"),
]


@pytest.mark.parametrize(("option", "value", "says"), RUN_BAD)
def test_a_run_count_out_of_range_is_one_line(option, value, says):
    """Refused while parsing, before a task is planned (``--dry-run``: a plan of that many
    runs would otherwise be made, held and printed)."""
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--dry-run",
            option, value)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    lines = [x for x in p.stderr.splitlines() if not x.startswith(("usage:", " "))]
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(f"puzzlebench run: error: argument {option}: {says}")
    assert lines[0].endswith(f"not {value}")
    assert p.stdout == ""  # no plan printed


def test_repeat_times_seeds_past_the_most_runs_is_one_line():
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--dry-run",
            "--repeat", "100", "--seeds", "101")
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr == (f"puzzlebench: --repeat 100 --seeds 101 runs each task 10100 times, "
                        f"more than {MAX_RUNS} (every run of every task is planned before any "
                        "starts)\n")


def test_the_run_counts_take_their_bounds():
    """The largest values pass the types (a plan of that size is not made here: parsing is
    what the bound governs)."""
    from bench.cli.args import jobs_count, runs_count, runs_problem

    assert runs_count(str(MAX_RUNS)) == MAX_RUNS and runs_count("1") == 1
    assert jobs_count(str(MAX_JOBS)) == MAX_JOBS
    assert runs_problem(0, 100, 100) == ""  # 10,000 runs of each task: the most
    assert runs_problem(0, MAX_RUNS, 1) == runs_problem(MAX_SEED - MAX_RUNS + 1, MAX_RUNS, 1) == ""
    assert runs_problem(MAX_SEED - MAX_RUNS + 2, MAX_RUNS, 1).endswith(
        f"runs seeds up to {MAX_SEED + 1}, past {MAX_SEED} (the largest every seeded solver "
        "takes)")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "-0.5"])
def test_a_progress_interval_not_finite_or_negative_is_one_line(value):
    """``run --progress`` takes a finite number of seconds, 0 or more: nan, inf and a negative
    number are refused, not read as "no progress lines"."""
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--dry-run",
            f"--progress={value}")  # = : argparse takes "-inf" for an option otherwise
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    lines = [x for x in p.stderr.splitlines() if not x.startswith(("usage:", " "))]
    assert lines == [f"puzzlebench run: error: argument --progress: must be a finite number "
                     f"of seconds, 0 or more (0: none), not {value}"], p.stderr


def test_a_progress_interval_takes_0_and_positive_seconds():
    from bench.cli.args import interval_seconds

    assert interval_seconds("0") == 0.0 and interval_seconds("2.5") == 2.5


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--seed", "-1", "must be at least 0 (a seed of the file's name and header), not -1"),
    ("--count", "-1", "must be at least 1, not -1"),
    ("--count", "0", "must be at least 1, not 0"),
    ("--count", "99999999999999999999", f"must be 1 .. {MAX_INT64}, not 99999999999999999999"),
])
def test_a_generate_seed_or_count_out_of_range_is_one_line(tmp_path, option, value, says):
    """``generate --seed -N`` would repeat ``--seed N``'s instances (``random.Random`` seeds
    with the absolute value) under another name: refused while parsing, nothing written."""
    other = {"--seed": "0", "--count": "1"}
    other.pop(option)
    (name, v), = other.items()
    p = cli("generate", "shikaku", "--size", "5x5", option, value, name, v,
            "--out", str(tmp_path / "gen"))
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    lines = [x for x in p.stderr.splitlines() if not x.startswith(("usage:", " "))]
    assert lines == [f"puzzlebench generate: error: argument {option}: {says}"], p.stderr
    assert not (tmp_path / "gen").exists()
