"""The peer formulations (``puzzlekit``, kind ``external``, optional extra ``peers``): they
solve the seeds with grids our rules accept and the .sol confirms, their one-time set-up is
recorded apart, and without the extra they are listed as unavailable with the reason and
skipped by runs: tested in a subprocess whose import system really cannot find puzzlekit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.records import Task
from bench.registry import formulations
from bench.run.execute import execute
from bench.run.pool import run_task
from tests.conftest import INSTANCES, ROOT

PEER_PUZZLES = ("nurikabe", "shikaku", "yinyang")  # puzzlekit 0.3.4 has no fillomino/shakashaka

#: the CLI with puzzlekit hidden from the import system (a finder refusing it: imports fail
#: as when the package is not installed)
HIDE = '''
import sys

class HidePuzzlekit:
    def find_spec(self, name, path=None, target=None):
        if name == "puzzlekit" or name.startswith("puzzlekit."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, HidePuzzlekit())
if sys.argv[1] == "--execute":
    import json
    from bench.run.execute import execute
    from bench.records import Task
    print(json.dumps(execute(Task(sys.argv[2], "puzzlekit", "external")).to_dict()))
elif sys.argv[1] == "--import":
    import puzzlekit  # noqa: F401
else:
    from bench.cli import main
    sys.exit(main())
'''

needs_puzzlekit = pytest.mark.skipif(
    next(c for c in formulations("nurikabe") if c.name == "puzzlekit").available() is not None,
    reason="the peers extra (puzzlekit) is not installed")


def seeds(puzzle: str) -> list[Path]:
    return sorted((INSTANCES / puzzle).glob("seed-*.txt"))


@needs_puzzlekit
@pytest.mark.parametrize("path", [p for pz in PEER_PUZZLES for p in seeds(pz)],
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_puzzlekit_solves_the_seeds_with_checked_grids(path: Path):
    res = execute(Task(str(path), "puzzlekit", "external", time_limit=60))
    assert res.status == "solved", res.message
    assert res.checked and res.kind == "external" and res.solver == "external"
    assert res.grid is not None and len(res.grid) == res.rows
    if path.with_suffix(".sol").exists():
        assert res.known is True
    assert res.setup_s is not None and res.setup_s > 0
    assert "puzzlekit 0.3.4" in res.solver_version


@needs_puzzlekit
def test_the_first_solve_set_up_is_apart_in_a_task_process():
    path = seeds("nurikabe")[0]
    res = run_task(Task(str(path), "puzzlekit", "external", time_limit=20))
    assert res.status == "solved" and res.checked, res.message
    assert res.setup_s is not None and res.build_s is not None and res.solve_s is not None
    # puzzlekit's first solve in a process costs about a second; after the warm-up the
    # seed's own solve is far cheaper than that set-up
    assert res.setup_s > res.solve_s
    assert res.wall_s is not None and res.wall_s > res.setup_s + res.build_s + res.solve_s


def hidden(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT),
                                                        os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", HIDE, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_the_hook_really_hides_puzzlekit():
    res = hidden("--import")
    assert res.returncode != 0 and "No module named 'puzzlekit'" in res.stderr


def test_without_the_extra_list_shows_them_unavailable_with_the_reason():
    res = hidden("list", "--json")
    assert res.returncode == 0, res.stderr
    peers = {f["puzzle"]: f for f in json.loads(res.stdout)["formulations"]
             if f["name"] == "puzzlekit"}
    assert set(peers) == set(PEER_PUZZLES)
    for f in peers.values():
        assert f["available"] is False and f["solvers"] == []
        assert f["reason"] == "puzzlekit is not installed (pip install 'puzzlebench[peers]')"
    text = hidden("list").stdout
    # one line per peer formulation; the `external` solver stays available for `frontier`,
    # which needs no package
    assert text.count("unavailable: puzzlekit is not installed") == len(PEER_PUZZLES)
    solvers = text[text.index("Solvers:"):] if "Solvers:" in text else text
    external = next(ln for ln in solvers.splitlines() if ln.strip().startswith("external"))
    assert "unavailable" not in external, external


def test_without_the_extra_a_run_skips_them_with_a_message(tmp_path):
    res = hidden("run", "--suite", "quick", "--out", str(tmp_path / "run"),
                 "--formulation", "puzzlekit", "--formulation", "sat-cover[card=seqcounter]",
                 "--puzzle", "nurikabe", "--puzzle", "shikaku", "--jobs", "1")
    assert "skipping formulation nurikabe/puzzlekit: puzzlekit is not installed" in res.stderr
    assert "skipping formulation shikaku/puzzlekit" in res.stderr
    journal = [json.loads(line) for line in
               (tmp_path / "run" / "journal.jsonl").read_text().splitlines()]
    assert journal and {r["formulation"] for r in journal} == {"sat-cover[card=seqcounter]"}


def test_without_the_extra_a_task_of_it_is_an_error_saying_why():
    res = hidden("--execute", str(seeds("nurikabe")[0]))
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["status"] == "error"
    assert out["message"] == ("puzzlekit unavailable: puzzlekit is not installed "
                              "(pip install 'puzzlebench[peers]')")
