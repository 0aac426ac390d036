"""What `solve`, `check` and a task process import and read: only what solving needs. Real
processes, the real instance files and solvers; ``sys.modules`` read at each process's end.

bench's own code brings no pandas, pyarrow, matplotlib or seaborn onto these paths (a solver
library that imports one itself, like OR-Tools, is the solver's cost, so the probes use a SAT
default). Beyond those: `solve` imports no other command's module and no formulation of another
puzzle, and a task forked from a template reads no package metadata (the template read it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.records import Task
from bench.run.pool import preload_modules
from tests.conftest import ROOT

REPORTING = {"pandas", "pyarrow", "matplotlib", "seaborn"}
NURIKABE = ROOT / "instances" / "nurikabe" / "seed-p01.txt"  # default: sat-hybrid / cadical195
#: default: sat-regions / cadical195, whose lazy rounds read whole models
FILLOMINO = ROOT / "instances" / "fillomino" / "fillomino-6x6-10a3b876.txt"

#: runs the command given as arguments; writes each process's modules (the command's at its
#: exit; a forked task's when its main returns: it leaves by os._exit, past any atexit) to the
#: folder $PROBE_OUT, one file per process
PROBE = """
import atexit, os, runpy, sys
from pathlib import Path

import importlib.metadata as md
scans = []
real_entry_points = md.entry_points
def entry_points(*a, **k):
    scans.append(1)
    return real_entry_points(*a, **k)
md.entry_points = entry_points

def dump(tag):
    Path(os.environ["PROBE_OUT"], f"{tag}-{os.getpid()}.json").write_text(
        __import__("json").dumps(sorted(sys.modules)))
    Path(os.environ["PROBE_OUT"], f"{tag}-{os.getpid()}.scans").write_text(str(len(scans)))

atexit.register(dump, "command")
import bench.run.task as task
real_main = task.main
def main(*argv):
    try:
        return real_main(*argv)
    finally:
        dump("task")
task.main = main
sys.argv = [sys.argv[1], *sys.argv[2:]]
try:
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
except SystemExit:
    pass
"""


def probe(tmp_path: Path, *argv: str) -> tuple[subprocess.CompletedProcess[str],
                                                 dict[str, set[str]]]:
    out = tmp_path / "modules"
    out.mkdir()
    p = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                                      "PROBE_OUT": str(out)}, timeout=300)
    found: dict[str, set[str]] = {}
    for f in out.glob("*.json"):
        found.setdefault(f.name.split("-")[0], set()).update(json.loads(f.read_text()))
    return p, found


def scans(tmp_path: Path) -> dict[str, int]:
    """How often each process of the last :func:`probe` read the entry points of every
    installed distribution (``importlib.metadata.entry_points``); a forked task counts its
    parent's reads before the fork too."""
    return {f.name.split("-")[0]: int(f.read_text())
            for f in (tmp_path / "modules").glob("*.scans")}


def tops(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_solve_on_a_sat_default_imports_no_reporting_library(tmp_path):
    """The command and the task it forks (the default start), and a spawned task."""
    p, found = probe(tmp_path, "bench.cli", "solve", str(NURIKABE), "--json")
    assert json.loads(p.stdout)["status"] == "solved", p.stderr
    assert json.loads(p.stdout)["solver"] == "cadical195"
    assert set(found) == {"command", "task"}, found.keys()
    for process, modules in found.items():
        assert "pysat" in tops(modules), process
        assert not tops(modules) & REPORTING, (process, tops(modules) & REPORTING)


def test_a_spawned_task_process_imports_no_reporting_library(tmp_path):
    task = Task(str(NURIKABE), "sat-hybrid", "cadical195", 30.0, 8192, 0, 1, 0)
    result = tmp_path / "task" / "result.json"
    result.parent.mkdir()
    _p, found = probe(tmp_path, "bench.run.task", json.dumps(task.to_dict()), str(result))
    assert json.loads(result.read_text())["status"] == "solved"
    spawned = found["command"]  # run as __main__: the process itself is the task
    assert {"pysat", "bench"} <= tops(spawned)
    assert not tops(spawned) & REPORTING, tops(spawned) & REPORTING


def test_a_template_of_every_kind_imports_no_reporting_library(tmp_path):
    """What a run's fork-server template preloads for SAT, MIP and CP-SAT tasks (OR-Tools
    itself imports pandas, so the CP-SAT template is checked for the plotting libraries)."""
    for kinds, banned in ((["sat"], REPORTING), (["mip"], REPORTING),
                          (["cpsat"], {"matplotlib", "seaborn"})):
        code = ("import json, sys\nfrom bench.run.forkserver import preload\n"
                f"preload({preload_modules(kinds)!r})\n"
                "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
        loaded = set(json.loads(p.stdout.splitlines()[-1]))
        assert "formulations" in loaded, (kinds, p.stderr)
        assert not loaded & banned, (kinds, loaded & banned)


def test_check_imports_no_reporting_library(tmp_path):
    p, found = probe(tmp_path, "bench.cli", "check", "sat-tree", "--puzzle", "nurikabe",
                     "--time-limit", "10")
    assert p.returncode == 0 and "0 failed" in p.stdout, p.stdout + p.stderr
    assert "pysat" in tops(found["command"])
    assert not tops(found["command"]) & REPORTING, tops(found["command"]) & REPORTING


def test_solve_imports_only_its_own_command_and_puzzle(tmp_path):
    """No other command's module, and no formulation module of another puzzle (neither in
    the command nor in its task): a single solve pays for its own puzzle's formulations."""
    p, found = probe(tmp_path, "bench.cli", "solve", str(NURIKABE))
    assert p.returncode == 0, p.stderr
    for process, modules in found.items():
        commands = {m for m in modules if m.startswith("bench.cli.")}
        assert commands <= {"bench.cli.solve", "bench.cli.args"}, (process, commands)
        puzzles = {m.split(".")[1] for m in modules
                   if m.startswith("formulations.") and m.count(".") >= 1}
        assert puzzles <= {"nurikabe"}, (process, puzzles)


def test_a_task_forked_from_a_template_reads_no_package_metadata(tmp_path):
    """The template reads the entry points (every installed distribution's metadata) once;
    its tasks read none: the table is inherited."""
    task = Task(str(NURIKABE), "sat-hybrid", "cadical195", 30.0, 8192, 0, 1, 0)
    result = tmp_path / "result.json"
    code = (
        "import importlib.metadata as md, json, sys\n"
        "from bench.run.forkserver import preload\n"
        f"preload({preload_modules(['sat'])!r})\n"
        "reads = []\n"
        "real = md.distributions\n"
        "def distributions(*a, **k):\n"
        "    reads.append(1)\n"
        "    return real(*a, **k)\n"
        "md.distributions = distributions\n"
        "from bench.run.task import main\n"
        f"main({json.dumps(task.to_dict())!r}, {str(result)!r})\n"
        "print(len(reads))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert json.loads(result.read_text())["status"] == "solved", p.stderr
    assert p.stdout.split() == ["0"], p.stdout + p.stderr


#: what a SAT task has no use for: the other kinds' solver libraries, and numpy (a small SAT
#: model is read without it)
NOT_FOR_SAT = {"numpy", "ortools", "pyomo", "highspy", "clingo", "pyscipopt", "cpmpy"}


@pytest.mark.parametrize(("instance", "formulation"), [(NURIKABE, "sat-hybrid"),
                                                      (FILLOMINO, "sat-regions[")],
                         ids=["nurikabe", "fillomino"])
def test_solve_on_a_sat_default_imports_no_other_solver_and_no_numpy(tmp_path, instance,
                                                                     formulation):
    p, found = probe(tmp_path, "bench.cli", "solve", str(instance), "--json")
    out = json.loads(p.stdout)
    assert out["status"] == "solved", p.stderr
    assert (out["formulation"].startswith(formulation), out["solver"]) == (True, "cadical195")
    assert set(found) == {"command", "task"}, found.keys()
    for process, modules in found.items():
        assert not tops(modules) & NOT_FOR_SAT, (process, tops(modules) & NOT_FOR_SAT)


def test_solve_on_a_built_in_pair_loads_only_its_own_puzzle_and_backend(tmp_path):
    """No other puzzle's rules, no other backend module, and the installed distributions'
    entry points never read: the built-in puzzle and solver are found without them."""
    p, found = probe(tmp_path, "bench.cli", "solve", str(NURIKABE), "--json")
    assert json.loads(p.stdout)["status"] == "solved", p.stderr
    for process, modules in found.items():
        rules = {m.split(".")[2] for m in modules
                 if m.startswith("bench.puzzles.") and m.endswith(".rules")}
        assert rules == {"nurikabe"}, (process, rules)
        backends = {m for m in modules if m.startswith("bench.backends.")}
        assert backends <= {"bench.backends.base", "bench.backends.kinds",
                            "bench.backends.sat"}, (process, backends)
    assert scans(tmp_path) == {"command": 0, "task": 0}
    # the tree's memory is read from /proc (psutil only where there is none)
    assert "psutil" not in tops(found["command"]) | tops(found["task"])


def test_solve_ends_without_the_interpreters_teardown_but_with_its_exit_handlers(tmp_path):
    """The command's process ends by os._exit once its output is out: the atexit handlers
    (here the probe's) ran, and the whole grid and summary line were written."""
    p, found = probe(tmp_path, "bench.cli", "solve", str(NURIKABE))
    assert p.returncode == 0 and "command" in found, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 8 and lines[-1].startswith("sat-hybrid["), p.stdout
    code = ("import sys\nsys.argv = ['bench.cli', 'solve', sys.argv[1]]\n"
            "class Kept:\n"
            "    def __del__(self):\n"
            "        print('torn down', flush=True)\n"
            "kept = Kept()  # collected only by the interpreter's teardown\n"
            "import atexit; atexit.register(print, 'handler ran')\n"
            "import runpy; runpy.run_module('bench.cli', run_name='__main__')\n")
    q = subprocess.run([sys.executable, "-c", code, str(NURIKABE)], capture_output=True,
                       text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                       timeout=300)
    assert q.returncode == 0 and q.stdout.splitlines()[-1] == "handler ran", q.stdout
    assert "torn down" not in q.stdout
