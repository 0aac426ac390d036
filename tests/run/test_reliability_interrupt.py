"""Stopping a run: the first Ctrl-C (SIGINT), SIGTERM, SIGHUP (a closed terminal) or SIGQUIT
starts no further task, kills the running ones without journaling them, writes the Parquet of
what finished, says how to resume and exits (130, 143, 129, 131) within a generous bound; a
resume runs the interrupted tasks. A task process killed before it created its stderr file is
a result like any other."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from bench.records import Task
from bench.run.forkserver import Template, Watchdog
from bench.run.pool import Templates, preload_modules, run_task, task_env
from bench.run.storage import Journal
from tests.conftest import ROOT, SHIKAKU_SEEDS

#: the 28 tasks of the fault probe's reproducer (the quick suite's Shikaku and Fillomino, every
#: variant of their SAT formulations, on MiniSat)
RUN = ("run", "--suite", "quick", "--puzzle", "shikaku", "--puzzle", "fillomino", "--solver",
       "minisat22", "--formulation", "shikaku:sat-cover", "--formulation", "fillomino:sat-lazy",
       "--formulation", "fillomino:sat-regions", "--time-limit", "5")
#: generous: the goal is under 2 s on a quiet machine; tests share a loaded one
EXIT_BOUND_S = 15.0


def start_run(out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def journal_lines(out: Path) -> int:
    path = out / "journal.jsonl"
    return path.read_bytes().count(b"\n") if path.exists() else 0


def wait_for_results(out: Path, n: int, proc: subprocess.Popen[str]) -> None:
    """Until the run journaled ``n`` results (it is running tasks then, with more queued)."""
    deadline = time.monotonic() + 120
    while journal_lines(out) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run journaled nothing"
        time.sleep(0.02)


@pytest.mark.parametrize(("signum", "code", "word"), [(signal.SIGINT, 130, "interrupted"),
                                                      (signal.SIGTERM, 143, "terminated"),
                                                      (signal.SIGHUP, 129, "terminated"),
                                                      (signal.SIGQUIT, 131, "terminated")])
def test_a_signal_stops_the_run_keeps_what_finished_and_a_resume_runs_the_rest(
        tmp_path, signum, code, word):
    out = tmp_path / "r"
    proc = start_run(out)
    wait_for_results(out, 2, proc)
    before = journal_lines(out)
    t0 = time.monotonic()
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=120)
    took = time.monotonic() - t0
    assert proc.returncode == code, err
    assert took < EXIT_BOUND_S, f"{took:.1f} s from the signal to the exit"
    assert "Traceback" not in err, err
    results = Journal(out).results()
    # no task started after the signal: at most the one running then finished in between
    assert before <= len(results) <= before + 1, (before, len(results))
    assert all(r.status == "solved" for r in results), [(r.status, r.message) for r in results]
    assert word in err and "to resume" in err, err
    assert f"({signal.Signals(signum).name})" in err, err
    df = pd.read_parquet(out / "results.parquet")
    assert sorted(df["key"]) == sorted(r.key for r in results)
    done = {r.key for r in results}
    p = subprocess.run([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    after = Journal(out).results()
    keys = [r.key for r in after]
    assert len(keys) == len(set(keys)) == 28  # every task exactly once
    assert done < set(keys)
    assert len(pd.read_parquet(out / "results.parquet")) == 28


def test_a_second_ctrl_c_journals_nothing_false(tmp_path):
    out = tmp_path / "r"
    proc = start_run(out)
    wait_for_results(out, 1, proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.3)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert all(r.status == "solved" for r in Journal(out).results())
    assert (out / "results.parquet").exists()


#: installed in a template by preload ("module:function:arg"): every task it forks stalls
#: before it opens its stderr file, so the harness kills it (memory limit) before it exists
STALL = "tests.run.test_reliability_interrupt:stall_before_stderr:"


def stall_before_stderr(_arg: str) -> None:
    real_open = os.open

    def stalling_open(path: str, *args: object, **kwargs: object) -> int:
        if str(path).endswith("stderr.txt"):
            time.sleep(60)
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    os.open = stalling_open  # type: ignore[assignment]


def test_a_task_killed_before_its_stderr_file_exists_is_a_memout(tmp_path):
    task = Task(str(SHIKAKU_SEEDS[0]), "sat-cover", "minisat22", time_limit=5,
                memory_limit_mb=1)
    watchdog = Watchdog()
    templates = Templates(watchdog)
    try:
        kinds = ("sat",)
        templates._templates[kinds, 1] = Template([*preload_modules(kinds), STALL],
                                                  env=task_env(1, watchdog))
        res = run_task(task, templates=templates)
    finally:
        templates.close()
        watchdog.close()
    assert res.status == "memout", res.message
    assert "1 MB" in res.message
    assert res.wall_s is not None and res.wall_s < 30  # killed at once, not after the stall


#: the console script (``from bench.cli import main; sys.exit(main())``), with a marker line
#: written as ``main`` starts building the command line: Python's own start-up (``site``) and
#: the script's first line come before any puzzlebench code and are not what is tested
ENTRY = """import os, sys
import bench.cli
from bench.cli import main
build = bench.cli.parser


def marked(argv=None):
    os.write(1, b"started\\n")
    return build(argv)


bench.cli.parser = marked
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1])
def test_ctrl_c_right_after_start_is_one_line_and_130(tmp_path, delay):
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, *RUN, "--out", str(tmp_path / "r")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"started\n"
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    text = err.decode()
    assert proc.returncode == 130 and "Traceback" not in text, text
    assert len(text.splitlines()) == 1 and text.startswith("puzzlebench: interrupted"), text


#: a command whose import is hit by Ctrl-C while a class body's ``__set_name__`` runs (as a
#: dataclass field's does): Python 3.11 wraps the interrupt in "RuntimeError: Error calling
#: __set_name__", its cause the interrupt; later versions raise the interrupt itself
WRAPPED = """import os, signal, sys
import bench.cli
build = bench.cli.parser


class Field:
    def __set_name__(self, owner, name):
        os.kill(os.getpid(), signal.SIGINT)


def command(args):
    class Record:
        grid = Field()
    return 0


class Parser:
    def parse_args(self, argv):
        args = build(argv).parse_args(argv)
        args.func = command
        return args


bench.cli.parser = lambda argv=None: Parser()
sys.exit(bench.cli.main(["list"]))
"""


def test_ctrl_c_wrapped_by_python_is_still_one_line_and_130():
    done = subprocess.run([sys.executable, "-c", WRAPPED], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("puzzlebench: interrupted"), done.stderr


#: the run of :data:`RUN`, hit by Ctrl-C while its coordinating process defines a class (as an
#: import does) in the run's first calibration: on 3.11 the interrupt surfaces wrapped in
#: "RuntimeError: Error calling __set_name__"
WRAPPED_IN_RUN = """import os, signal, sys
import bench.run.noise as noise
from bench.cli import main

calibrate = noise.calibrate


class Field:
    def __set_name__(self, owner, name):
        os.kill(os.getpid(), signal.SIGINT)


def interrupted(*args):
    class Record:
        grid = Field()
    return calibrate(*args)


noise.calibrate = interrupted
sys.exit(main(sys.argv[1:]))
"""


def test_a_wrapped_ctrl_c_in_a_run_stops_it_as_any_ctrl_c_does(tmp_path):
    out = tmp_path / "r"
    done = subprocess.run([sys.executable, "-c", WRAPPED_IN_RUN, *RUN, "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr
    # the run's own stop: its table written, the command to resume named
    assert "interrupted (SIGINT)" in done.stderr and "to resume" in done.stderr, done.stderr
    assert (out / "results.parquet").exists() and Journal(out).results() == []
    again = subprocess.run([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert len(pd.read_parquet(out / "results.parquet")) == 28


#: repetitions of one Shikaku task, each with a result in a source run to reuse
REPS = 300


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder holding a result for each of :data:`REPS` repetitions of one task: one
    measured, its copies given each repetition's key and identity."""
    import json

    from bench.identity import identity
    from bench.records import task_key

    src = tmp_path_factory.mktemp("src") / "src"
    p = subprocess.run([sys.executable, "-m", "bench.cli", *REUSE_RUN, "--repeat", "1",
                        "--out", str(src)], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    row = json.loads((src / "journal.jsonl").read_text().splitlines()[0])
    digest = row["key"].split("|")[0]
    lines = []
    for rep in range(REPS):
        r = {**row, "rep": rep, "key": task_key(digest, row["formulation"], row["solver"],
                                                row["seed"], 0, rep)}
        lines.append(json.dumps({**r, "identity": identity(r)}))
    (src / "journal.jsonl").write_text("\n".join(lines) + "\n")
    return src


REUSE_RUN = ("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--solver", "cpsat",
             "--time-limit", "20")


#: ``puzzlebench`` whose results table takes two seconds to write, the file ``TABLE_MARK``
#: created as the write begins: a signal sent once it exists comes during the write
SLOW_TABLE = """
import os, sys, time
from pathlib import Path
import bench.run.storage as storage
from bench.cli import main
inner = storage._write_table
def slow(*args):
    Path(os.environ["TABLE_MARK"]).touch()
    time.sleep(2)
    return inner(*args)
storage._write_table = slow
sys.argv[0] = "puzzlebench"
sys.exit(main())
"""


def _stopped_run(source: Path, out: Path, when: object,
                 command: tuple[str, ...] = ("-m", "bench.cli"),
                 env: dict[str, str] | None = None) -> tuple[str, int]:
    """Start a run reusing ``source`` (``python COMMAND ...``), send SIGINT once ``when()``
    holds; its stderr and how many results the journal held then."""
    proc = subprocess.Popen([sys.executable, *command, *REUSE_RUN, "--repeat",
                             str(REPS), "--reuse", str(source), "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    deadline = time.monotonic() + 120
    while not when():  # type: ignore[operator]
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.001)
    n = journal_lines(out)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "Traceback" not in err, err
    return err, n


def test_ctrl_c_during_the_reuse_copy_keeps_the_copied_results_in_the_parquet(source, tmp_path):
    out = tmp_path / "r"
    err, n = _stopped_run(source, out, lambda: journal_lines(out) >= 20)
    kept = len(Journal(out).results())
    assert 20 <= n <= kept < REPS, (n, kept)
    assert len(err.splitlines()) == 1 and f"{kept} finished results kept in" in err, err
    assert str(out / "results.parquet") in err and "to resume" in err, err
    assert len(pd.read_parquet(out / "results.parquet")) == kept
    p = subprocess.run([sys.executable, "-m", "bench.cli", *REUSE_RUN, "--repeat", str(REPS),
                        "--reuse", str(source), "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert f"reused {REPS - kept} of {REPS} tasks" in p.stdout, p.stdout
    assert len(pd.read_parquet(out / "results.parquet")) == REPS


def test_ctrl_c_during_the_parquet_write_still_writes_it(source, tmp_path):
    """The table's write is slowed by a wrapper of the run (:data:`SLOW_TABLE`), so that the
    signal comes during it on any machine, however fast the write."""
    import os

    out, mark = tmp_path / "r", tmp_path / "writing"
    err, n = _stopped_run(source, out, mark.exists, ("-c", SLOW_TABLE),
                          {**os.environ, "TABLE_MARK": str(mark)})
    assert n == REPS  # every result was in the journal: the run was writing its table
    assert len(err.splitlines()) == 1 and f"{REPS} finished results kept in" in err, err
    assert len(pd.read_parquet(out / "results.parquet")) == REPS


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGQUIT])
def test_a_run_started_with_a_stop_ignored_survives_it(tmp_path, signum):
    """``nohup puzzlebench run ...`` (SIGHUP ignored) or a script's background job (SIGQUIT
    ignored): the signal changes nothing, the run finishes normally."""
    out = tmp_path / "r"
    proc = subprocess.Popen([sys.executable, "-m", "bench.cli", *RUN, "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signum, signal.SIG_IGN))
    wait_for_results(out, 2, proc)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert "terminated" not in err, err
    assert len(Journal(out).results()) == 28
    assert len(pd.read_parquet(out / "results.parquet")) == 28
