"""Shakashaka formulations: every formulation x every solver of its kind on the seeds,
uniqueness on the seeds and the real puzzles, infeasibility, and the exactness evidence for
the seed model (known solutions satisfy it; the original glpsol run gives the same grids)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pyomo.environ as pyo
import pytest

from bench.instance import read_instance
from bench.records import Result, Task
from bench.run.execute import execute
from bench.run.pool import Plan, run_plan
from bench.run.storage import Journal
from bench.variants import variants
from formulations.shakashaka.mip_seed import TYPE_OF, MipSeed
from tests.conftest import INSTANCES, builtin_formulations, usable_backends

SEEDS = sorted((INSTANCES / "shakashaka").glob("seed-*.txt"))
REAL = sorted((INSTANCES / "shakashaka").glob("shakashaka-*.txt"))
PAIRS = [(cls.name, b.name) for cls in builtin_formulations("shakashaka")
         for b in usable_backends(cls.kind)]
ONE_SOLVER = {"sat": "cadical195", "cpsat": "cpsat", "mip": "glpk", "asp": "clingo",
              "cpmpy": "cpmpy:ortools"}
EXTRACTED = INSTANCES.parent.parent / "shared" / "seeds" / "extracted"  # ../shared beside the repo


def _solution(path: Path) -> list[list[str]]:
    r = execute(Task(str(path), "sat-local", "cadical195", time_limit=60))
    assert r.status == "solved" and r.checked is True, r.message
    assert r.grid is not None
    return r.grid


def _run(tasks: list[Task], folder: Path) -> dict[tuple[str, str, str], Result]:
    results = run_plan(Plan(tasks), Journal(folder), jobs=2)
    return {(r.instance_path, r.formulation, r.solver): r for r in results}


@pytest.fixture(scope="module")
def seed_results(tmp_path_factory):
    # the default variant of each formulation on every solver of its kind
    return _run([Task(str(p), cls.name, b.name, time_limit=60) for p in SEEDS
                 for cls in builtin_formulations("shakashaka") for b in usable_backends(cls.kind)],
                tmp_path_factory.mktemp("run"))


def test_pairs_cover_every_kind():
    names = {f for f, _ in PAIRS}
    assert names >= {"mip-seed", "sat-local", "cpsat-local", "mip-local"}
    assert {s for _, s in PAIRS} >= {"glpk", "cbc", "highs", "cpsat", "cadical195"}


@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.stem)
@pytest.mark.parametrize(("form", "solver"), PAIRS)
def test_solves_seed_and_passes_checker(seed_results, seed, form, solver):
    matches = [r for (i, f, s), r in seed_results.items()
               if i == str(seed) and f.split("[")[0] == form and s == solver]
    assert matches
    for r in matches:
        assert r.status == "solved", r.message
        assert r.checked is True


@pytest.mark.slow
def test_every_variant_solves_the_seeds(tmp_path):
    tasks = [Task(str(p), v.label, b.name, time_limit=60) for p in SEEDS
             for cls in builtin_formulations("shakashaka") for v in variants(cls)
             for b in usable_backends(cls.kind) if v.params != cls().params
             if cls.kind != "sat" or b.name == "cadical195"]
    results = _run(tasks, tmp_path / "run")
    assert len(results) == len(tasks) >= 2 * (5 + 3)
    for r in results.values():
        assert (r.status, r.checked) == ("solved", True), (r.instance, r.formulation, r.message)


def test_unique_on_seeds_and_real_puzzles():
    # in-process (SAT and GLPK load no OR-tools/highspy into the test process)
    assert len(REAL) == 16
    tasks = [Task(str(p), "sat-local", "cadical195", time_limit=60, count=2)
             for p in (*SEEDS, *REAL)]
    tasks += [Task(str(p), f"mip-seed[objective={o}]", "glpk", time_limit=60, count=2)
              for p in SEEDS for o in ("max-triangles", "none")]
    for t in tasks:
        r = execute(t)
        assert (r.status, r.checked, r.count) == ("solved", True, 1), (r.instance, r.message)


@pytest.mark.parametrize("grid", [
    ". 1 .\n",  # a lone triangle in one row leaves a triangular white area
    "0 . 2\n. . .\n. . .\n",  # the 2 needs triangles at (0,1) and (1,2); the 0 forbids (0,1)
], ids=["one-row", "numbers"])
def test_infeasible_everywhere(tmp_path, write, grid):
    inst = write("infeasible.txt", "puzzle: shakashaka\n\n" + grid)
    tasks = [Task(str(inst), v.label, ONE_SOLVER[cls.kind], time_limit=30)
             for cls in builtin_formulations("shakashaka") for v in variants(cls)
             if v.is_exact() and (cls.kind != "sat" or v.params == cls().params)]
    results = _run(tasks, tmp_path / "run").values()
    assert {(r.formulation, r.solver): r.status for r in results} == {
        (t.formulation, t.solver): "infeasible" for t in tasks}


def test_counts_agree_on_an_empty_board(tmp_path, write):
    # 2x3 without givens: all white, or a diamond in the left or the right 2x2 square
    inst = write("empty.txt", "puzzle: shakashaka\n\n. . .\n. . .\n")
    tasks = [Task(str(inst), f, s, time_limit=30, count=10) for f, s in (
        ("sat-local", "minisat22"), ("cpsat-local", "cpsat"), ("cpsat-rects", "cpsat"),
        ("mip-local", "highs"),
        ("mip-seed[objective=none]", "highs"), ("mip-seed", "glpk"))]
    results = _run(tasks, tmp_path / "run").values()
    assert [(r.status, r.count) for r in results] == [("solved", 3)] * len(tasks)


def _random_instance(rng: random.Random) -> str:
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    g = [[rng.choices([".", "#", "n"], [0.83, 0.12, 0.05])[0] for _ in range(cols)]
         for _ in range(rows)]
    for r, c in ((r, c) for r in range(rows) for c in range(cols) if g[r][c] == "n"):
        free = sum(g[y][x] != "#" for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                   if 0 <= y < rows and 0 <= x < cols)
        g[r][c] = str(rng.randint(0, min(free, 2)))
    return "puzzle: shakashaka\n\n" + "\n".join(" ".join(row) for row in g) + "\n"


@pytest.mark.slow
def test_every_formulation_counts_alike_on_random_boards(tmp_path):
    # exactness evidence: the same number of solutions (up to 40) as sat-local, all checked
    rng = random.Random(7)
    paths = []
    for k in range(20):
        paths.append(tmp_path / f"r{k}.txt")
        paths[-1].write_text(_random_instance(rng))
    pairs = [("sat-local", "cadical195"), ("cpsat-local", "cpsat"), ("cpsat-rects", "cpsat"),
             ("mip-local", "cbc"), ("mip-seed[objective=none]", "highs"), ("mip-seed", "glpk")]
    results = _run([Task(str(p), f, s, time_limit=60, count=40) for p in paths
                    for f, s in pairs], tmp_path / "run")
    for p in paths:
        got = {(r.status, r.count, r.checked) for (i, _, _), r in results.items()
               if i == str(p)}
        assert len(got) == 1 and next(iter(got))[2] in (True, None), (p.read_text(), got)


def _seed_rows_violated(path: Path, grid: list[list[str]]) -> list[str]:
    """Fix the cell values of ``grid`` in the seed model (the black cells' type binaries at
    0) and list the rows that do not hold."""
    inst = read_instance(path)
    m = MipSeed().build(inst).model  # type: ignore[union-attr]
    for var in (m.b, m.g, m.w, m.gp, m.gq, m.gb, m.gd):
        for idx in var:
            var[idx].fix(0)
    for idx in m.indx:
        m.indx[idx].fix(1)
    for r in range(inst.rows + 2):
        for c in range(inst.cols + 2):
            v = grid[r - 1][c - 1] if 1 <= r <= inst.rows and 1 <= c <= inst.cols else "#"
            if v == "#":
                m.b[r, c].fix(1)
            elif v == ".":
                m.w[r, c].fix(1)
            else:
                m.g[r, c].fix(1)
                getattr(m, TYPE_OF[v])[r, c].fix(1)
                m.indx[r, c].fix(1 + "◢◣◤◥".index(v) + 1)
    m.obj_value.fix(sum(v not in "#." for row in grid for v in row))
    bad = []
    for con in m.component_data_objects(pyo.Constraint, active=True):
        body = pyo.value(con.body)
        if (con.has_lb() and body < pyo.value(con.lower) - 1e-9) or (
                con.has_ub() and body > pyo.value(con.upper) + 1e-9):
            bad.append(con.name)
    return bad


@pytest.mark.parametrize("path", [*SEEDS, *REAL], ids=lambda p: p.stem)
def test_seed_model_admits_the_solution(path):
    # exactness, one direction: the (unique) valid grid satisfies every row of the seed model
    assert _seed_rows_violated(path, _solution(path)) == []


def test_seed_model_row_check_can_fail():
    # the row check above is not vacuous: a white cell where a triangle belongs breaks rows
    grid = _solution(SEEDS[0])
    r, c = next((r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v in "◢◣◤◥")
    grid[r][c] = "."
    assert _seed_rows_violated(SEEDS[0], grid)


def _glpsol_grid(out: str) -> list[list[str]]:
    """The seed's print-out (two text lines per row, two characters per cell) as a grid."""
    lines = out.split("--ban--\n")[-1].split("\n")
    cells = {"BB": "#", "====": ".", "=//d": "◢", "\\=b\\": "◣", "P//=": "◤", "\\q=\\": "◥"}
    grid = []
    for top, bottom in zip(lines[0::2], lines[1::2], strict=False):
        if not top.strip():
            break
        grid.append([cells.get(top[k:k + 2] if top[k:k + 2] == "BB" else
                               top[k:k + 2] + bottom[k:k + 2], "?")
                     for k in range(0, len(top), 2)])
    return grid


@pytest.mark.skipif(not (EXTRACTED / "shaka.mod").exists() or not shutil.which("glpsol"),
                    reason="the seed's extracted model or glpsol is not available")
@pytest.mark.parametrize("k", [1, 2])
def test_port_matches_glpsol_on_the_original_model(k):
    out = subprocess.run(["glpsol", "--math", str(EXTRACTED / "shaka.mod"), "--data",
                          str(EXTRACTED / f"shakashaka-p0{k}.dat")], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    seed = INSTANCES / "shakashaka" / f"seed-p0{k}.txt"
    port = execute(Task(str(seed), "mip-seed", "glpk", time_limit=60))
    assert port.status == "solved" and port.checked is True
    assert _glpsol_grid(out) == port.grid
