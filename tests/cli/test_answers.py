"""`solve` and `list` as a new user meets them: real processes, real instance files, the real
solvers. What each prints must answer the question asked (the count, the help of every
argument, aligned columns, the defaults marked, why a solver cannot run) and never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

NURIKABE = ROOT / "instances" / "nurikabe" / "seed-p01.txt"  # a SAT default (sat-hybrid)


def cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None,
        prefix: tuple[str, ...] = ("-m", "bench.cli")) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *prefix, *args], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          timeout=300)


def test_solve_count_prints_the_count_without_json():
    p = cli("solve", str(NURIKABE), "--count", "2")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == "solutions: 1 (all there are)", p.stdout


def test_solve_of_a_puzzle_without_solution_says_so_in_one_line():
    path = ROOT / "bench" / "puzzles" / "shikaku" / "data" / "infeasible" / "shikaku-1x4.txt"
    p = cli("solve", str(path), "--formulation", "sat-cover", "--solver", "cadical195")
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.splitlines() == [
        f"puzzlebench: infeasible: {path}: no solution (sat-cover[card=seqcounter] / cadical195 "
        "proved it infeasible)"], p.stderr
    got = json.loads(cli("solve", str(path), "--formulation", "sat-cover", "--json").stdout)
    assert got["status"] == "infeasible" and "no solution" in got["message"]


def test_solve_help_documents_every_argument():
    p = cli("solve", "--help")
    assert p.returncode == 0
    # argparse lists an argument without help as its name alone on its line
    options = re.findall(r"^  (\S.*?)$", p.stdout.split("positional arguments:", 1)[1],
                         re.MULTILINE)
    bare = [o for o in options if len(re.split(r"\s{2,}", o.strip())) < 2
            and not o.strip().startswith(("--formulation FORMULATION",))]
    assert not bare, bare
    for name in ("instance", "--json", "--solver", "--seed", "--time-limit"):
        line = next(o for o in options if o.split()[0].rstrip(",") == name)
        assert len(re.split(r"\s{2,}", line.strip())) == 2, line  # name, then its help


def _table(stdout: str, heading: str) -> list[str]:
    part = stdout.split(heading, 1)[1]
    rows = []
    for line in part.splitlines()[1:]:
        if not line.startswith("  ") or line.startswith("   "):
            if line and not line.startswith(" "):
                break
            continue
        rows.append(line)
    return rows


def test_list_columns_stay_aligned_on_long_names():
    """Every row's third column (kind) and description start at the same place, however
    long a name (fillomino's `cpsat-placements` is longer than the old fixed width)."""
    out = cli("list").stdout
    rows = _table(out, "Formulations:")
    assert any("cpsat-placements" in r for r in rows)
    starts = set()
    for r in rows:
        m = re.match(r"  \S+( +)\S+( +)\S+( +)", r)
        assert m, r
        starts.add((m.end(1), m.end(2), m.end(3)))  # name, kind, description
    assert len(starts) == 1, sorted(starts)
    solvers = _table(out, "Solvers:")
    places = {(re.match(r"  \S+\s+", s).end(), re.match(r"  \S+\s+\S+\s+", s).end())
              for s in solvers}
    assert len(places) == 1, places


def test_list_marks_the_default_variants_and_the_solve_default():
    out = cli("list").stdout
    # Nurikabe's declared default is the selector robust: both pairs it picks are marked
    assert re.search(r"^\s+sat-hybrid\[wall=auto,[^\s]*\] \(lazy\) \(default\) "
                     r"\(solve default by robust, with cadical195\)$", out, re.MULTILINE), out
    assert re.search(r"^\s+frontier \(solve default by robust, with external\)$", out,
                     re.MULTILINE), out
    assert re.search(r"^\s+sat-regions\[big=8,pieces=3\] \(lazy\) \(default\) "
                     r"\(solve default, with cadical195\)$", out, re.MULTILINE), out
    assert re.search(r"^\s+asp-regions\[size=each\] \(default\)$", out, re.MULTILINE)
    assert re.search(r"^\s+asp-regions\[size=root\]$", out, re.MULTILINE)
    data = json.loads(cli("list", "--json").stdout)
    nuri = {f["name"]: f for f in data["formulations"] if f["puzzle"] == "nurikabe"}
    assert [v["default"] for v in nuri["sat-hybrid"]["variants"]][:2] == [True, False]
    assert nuri["sat-hybrid"]["variants"][0]["solve_default"] == "cadical195"
    assert nuri["sat-hybrid"]["variants"][0]["solve_selector"] == "robust"
    assert nuri["frontier"]["variants"][0]["solve_default"] == "external"


BUILTIN_PUZZLES = ("fillomino", "nurikabe", "shakashaka", "shikaku", "yinyang")


def test_list_starts_with_the_puzzles_where_they_come_from_and_what_solve_uses():
    """One line per puzzle, before the formulations: built in or which plugin, how many
    formulations, whether it has a generator, and `solve`'s default (the declared pair, or the
    declared selector); the same under the JSON key "puzzles", the other keys unchanged."""
    out = cli("list").stdout
    assert out.startswith("Puzzles:\n"), out[:200]
    rows = _table(out, "Puzzles:")
    assert [r.split()[0] for r in rows] == list(BUILTIN_PUZZLES), rows
    data = json.loads(cli("list", "--json").stdout)
    assert list(data)[:2] == ["formulations", "solvers"] and "puzzles" in data
    counts = {p: sum(f["puzzle"] == p for f in data["formulations"]) for p in BUILTIN_PUZZLES}
    for row, name in zip(rows, BUILTIN_PUZZLES, strict=True):
        assert re.match(rf"  {name} +built in +{counts[name]} formulations, generator, ", row)
    assert rows[0].endswith("solve default: sat-regions[big=8,pieces=3] / cadical195"), rows
    assert rows[1].endswith("solve default: selector robust (2 pairs, marked below)"), rows
    assert rows[3].endswith("solve default: cpsat-cover / cpsat"), rows
    puzzles = {p["name"]: p for p in data["puzzles"]}
    assert list(puzzles) == list(BUILTIN_PUZZLES)
    for name in BUILTIN_PUZZLES:
        assert puzzles[name]["plugin"] == "" and puzzles[name]["generator"] is True
        assert puzzles[name]["package"] == f"bench.puzzles.{name}"
        assert puzzles[name]["formulations"] == counts[name]
    assert puzzles["shikaku"]["solve_default"] == ["cpsat-cover / cpsat"]
    assert puzzles["shikaku"]["solve_selector"] == ""
    nuri = puzzles["nurikabe"]
    assert nuri["solve_selector"] == "robust" and len(nuri["solve_default"]) == 2
    assert "frontier / external" in nuri["solve_default"]


def test_list_shows_an_installed_puzzle_plugin_without_generator_or_default(tmp_path):
    """A puzzle plugin that registered shows as such with its distribution, even before it
    has a formulation, a generator or a declared default."""
    (tmp_path / "listed_toy").mkdir()
    (tmp_path / "listed_toy" / "__init__.py").write_text("")
    (tmp_path / "listed_toy" / "rules.py").write_text(
        "from bench.puzzles import Puzzle, register_puzzle\n\n\n@register_puzzle\n"
        "class Toy(Puzzle):\n    name = 'listed_toy'\n\n    def verify(self, inst, grid):\n"
        "        return self.verify_shape(inst, grid)\n")
    info = tmp_path / "listed_toy_dist-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: listed-toy-dist\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzlebench.puzzles]\nlisted_toy = listed_toy\n")
    env = {"PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}"}
    p = cli("list", env=env)
    assert p.returncode == 0, p.stderr
    row = next(r for r in _table(p.stdout, "Puzzles:") if r.split()[0] == "listed_toy")
    assert re.fullmatch(r"  listed_toy +plugin: listed-toy-dist +0 formulations, no generator, "
                        r"no solve default", row), row
    assert re.search(r"^  shikaku +built in ", p.stdout, re.MULTILINE), p.stdout
    toy = next(q for q in json.loads(cli("list", "--json", env=env).stdout)["puzzles"]
               if q["name"] == "listed_toy")
    assert toy == {"name": "listed_toy", "package": "listed_toy", "plugin": "listed-toy-dist",
                   "formulations": 0, "generator": False, "solve_default": [],
                   "solve_selector": ""}


BLOCK_PEERS = """
import runpy, sys
class Block:  # this interpreter has no peer package: importing one fails as if uninstalled
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "puzzlekit":
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Block())
sys.argv = ["puzzlebench", *sys.argv[1:]]
runpy.run_module("bench.cli", run_name="__main__")
"""


def test_list_without_a_peer_says_why_its_formulations_are_unavailable():
    """The external solver stays available for the formulations that need no package
    (``frontier``); the peer's formulations say why they are not."""
    p = cli("list", prefix=("-c", BLOCK_PEERS))
    assert p.returncode == 0, p.stderr
    line = next(ln for ln in p.stdout.splitlines() if ln.startswith("  external "))
    assert "(available" in line and "unavailable" not in line, line
    listed = json.loads(cli("list", "--json", prefix=("-c", BLOCK_PEERS)).stdout)
    solvers = {s["name"]: s for s in listed["solvers"]}
    assert solvers["external"]["available"] is True
    forms = {(f["puzzle"], f["name"]): f for f in listed["formulations"]}
    assert forms[("nurikabe", "frontier")]["available"] is True
    peer = forms[("nurikabe", "puzzlekit")]
    assert peer["available"] is False and "puzzlekit is not installed" in peer["reason"]


def test_list_outside_a_project_lists_and_suites_says_one_line(tmp_path):
    env = {"PUZZLEBENCH_ROOT": str(tmp_path)}  # no instances/suites.toml there
    p = cli("list", cwd=tmp_path, env=env)
    assert p.returncode == 0, p.stderr
    assert "Formulations:" in p.stdout and "Traceback" not in p.stderr
    p = cli("list", "--suites", cwd=tmp_path, env=env)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.strip().splitlines() == [
        f"puzzlebench: no suites here: {tmp_path / 'instances' / 'suites.toml'} not found (run "
        "inside a puzzlebench project folder, or set PUZZLEBENCH_ROOT to one)"]
    (tmp_path / "instances").mkdir()
    (tmp_path / "instances" / "suites.toml").write_text("quick = [\n")
    p = cli("list", "--suites", "--json", cwd=tmp_path, env=env)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert "suites.toml: not valid TOML" in p.stderr and p.stderr.count("suites.toml") == 1
