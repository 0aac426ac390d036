"""A formulation's error points at its line: the result keeps the phase (build, decode, separate,
block) and the traceback, the message names the formulation's file:line; `solve` prints the
formulation's own frames, the journal keeps the traceback and the report lists the error under
its pair. A kind/model mismatch names the formulation, its kind and what build returned (a
build that returned None: the missing ``return``), an error of the build; counting
without block says what to implement; a formulation's ``skip`` makes a task ``skipped``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.instance import Instance
from bench.models import SatModel, Value
from bench.puzzles import SolutionGrid
from bench.records import Task, schema_problem
from bench.registry import Formulation, Unsupported, formulation
from bench.run.execute import execute
from tests.conftest import ROOT, SHIKAKU_SEEDS, formulation_source, plugin_package
from tests.test_check import Cover

SEED = str(SHIKAKU_SEEDS[0])
HERE = Path(__file__).name


def line_of(text: str) -> int:
    """The line of this file holding ``text``."""
    lines = Path(__file__).read_text().splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line and "line_of" not in line)


@formulation
class BadBuild(Cover):
    name = "test-fail-build"

    def build(self, inst: Instance) -> SatModel:
        return {}[(10, 0)]  # the build error


@formulation
class BadDecode(Cover):
    name = "test-fail-decode"

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        raise ValueError("no grid here")  # the decode error


@formulation
class BadBlock(Cover):
    name = "test-fail-block"

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        raise IndexError("block broke")  # the block error


@formulation
class BadSeparate(Cover):
    name = "test-fail-separate"
    lazy = True

    def separate(self, inst: Instance, model: SatModel, value: Value) -> int:
        raise RuntimeError("cut broke")  # the separate error


@formulation
class WrongKind(Cover):
    name = "test-fail-kind"
    kind = "cpsat"


@formulation
class NoBlock(Cover):
    name = "test-fail-noblock"
    block = Formulation.block  # type: ignore[assignment]


@formulation
class DecodesNothing(Cover):
    name = "test-fail-decodes-none"

    def decode(self, inst: Instance, model: SatModel, value: Value) -> SolutionGrid:
        super().decode(inst, model, value)  # the grid made, the return forgotten
        return None  # type: ignore[return-value]


@formulation
class BlocksSilently(Cover):
    name = "test-fail-blocks-none"

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        super().block(inst, model, grid)  # the clause added, the return forgotten
        return None  # type: ignore[return-value]


@formulation
class DeclinesToBlock(Cover):
    name = "test-fail-blocks-false"

    def block(self, inst: Instance, model: SatModel, grid: SolutionGrid) -> bool:
        return False  # this model cannot exclude a grid


@formulation
class Skips(Cover):
    name = "test-fail-skips"

    def skip(self, inst: Instance) -> str | None:
        return "only square boards" if inst.rows != inst.cols else None


@formulation
class RaisesUnsupported(Cover):
    name = "test-fail-unsupported"

    def build(self, inst: Instance) -> SatModel:
        raise Unsupported("not this board")


@pytest.mark.parametrize(("name", "phase", "marker"), [
    ("test-fail-build", "build", "# the build error"),
    ("test-fail-decode", "decode", "# the decode error"),
    ("test-fail-block", "block", "# the block error"),
    ("test-fail-separate", "separate", "# the separate error"),
])
def test_an_error_keeps_its_phase_traceback_and_line(name: str, phase: str, marker: str):
    res = execute(Task(SEED, name, "cadical195", 20.0, count=2 if phase == "block" else 0))
    assert res.status == "error"
    assert res.phase == phase
    assert f"{phase}: " in res.message and f"{HERE}:{line_of(marker)}" in res.message
    assert marker in res.traceback and "Traceback" in res.traceback
    assert not schema_problem(res.to_dict())


def test_a_kind_mismatch_names_the_formulation_its_kind_and_the_model():
    res = execute(Task(SEED, "test-fail-kind", "cpsat", 20.0))
    assert res.status == "error"
    for word in ("test-fail-kind", "WrongKind", "kind = 'cpsat'", "CpsatModel", "SatModel"):
        assert word in res.message


def test_counting_without_block_says_what_to_implement():
    res = execute(Task(SEED, "test-fail-noblock", "cadical195", 20.0, count=2))
    assert res.status == "error"
    assert "implement block(inst, model, grid)" in res.message and "NoBlock" in res.message


def test_a_decode_returning_no_grid_is_an_error_of_decode_naming_the_class():
    res = execute(Task(SEED, "test-fail-decodes-none", "cadical195", 20.0))
    assert (res.status, res.phase) == ("error", "decode")
    assert "DecodesNothing" in res.message and "returned NoneType, not the solution grid" \
        in res.message and "solver" not in res.message


def test_a_block_returning_none_is_told_to_return_true_not_to_implement_block():
    res = execute(Task(SEED, "test-fail-blocks-none", "cadical195", 20.0, count=2))
    assert res.status == "error"
    assert "BlocksSilently" in res.message and "returned None: return True" in res.message
    assert "implement block" not in res.message


def test_a_block_declining_says_so_not_to_implement_block():
    res = execute(Task(SEED, "test-fail-blocks-false", "cadical195", 20.0, count=2))
    assert res.status == "error"
    assert "DeclinesToBlock" in res.message and "returned False (this model cannot exclude a " \
        "grid)" in res.message
    assert "implement block" not in res.message


def test_skip_and_unsupported_make_a_skipped_task_with_the_reason():
    rect = str(sorted(SHIKAKU_SEEDS, key=lambda p: p.stat().st_size)[-1])  # 36x20
    res = execute(Task(rect, "test-fail-skips", "cadical195", 20.0))
    assert res.status == "skipped" and "only square boards" in res.message
    assert not schema_problem(res.to_dict())
    assert execute(Task(SEED, "test-fail-skips", "cadical195", 20.0)).status == "solved"
    res = execute(Task(SEED, "test-fail-unsupported", "cadical195", 20.0))
    assert res.status == "skipped" and "not this board" in res.message


BOOM = '''
from bench.models import SatModel
from bench.registry import Formulation, formulation


@formulation
class SatBoom(Formulation[SatModel]):
    puzzle = "shikaku"
    name = "sat-boom"
    kind = "sat"
    description = "raises in build"

    def build(self, inst):
        cells = {}
        return cells[(10, 0)]
'''


@pytest.fixture(scope="module")
def boom_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("boom")
    return plugin_package(root, "boom-pkg", "0.1", {"sat_boom": BOOM},
                          {"shikaku.sat.sat-boom": "boom_pkg.sat_boom"})


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)


def test_a_plugin_error_shows_file_line_and_phase_in_solve_journal_and_report(
        boom_env: dict[str, str], tmp_path: Path):
    where = "boom_pkg/sat_boom.py:15"
    res = cli(boom_env, "solve", SEED, "--formulation", "sat-boom", "--solver", "cadical195")
    assert res.returncode == 1
    assert f"build: KeyError: (10, 0) at {where}" in res.stderr
    assert "in the formulation's code" in res.stderr and "return cells[(10, 0)]" in res.stderr
    assert "Traceback" not in res.stderr  # the whole one with -v
    assert "Traceback" in cli(boom_env, "-v", "solve", SEED, "--formulation", "sat-boom",
                              "--solver", "cadical195").stderr
    js = json.loads(cli(boom_env, "solve", SEED, "--formulation", "sat-boom", "--solver",
                        "cadical195", "--json").stdout)
    assert js["status"] == "error" and where in js["message"]

    run = tmp_path / "run"
    res = cli(boom_env, "run", SEED, "--formulation", "sat-boom", "--solver", "cadical195",
              "--jobs", "1", "--time-limit", "20", "--out", str(run))
    assert res.returncode == 1 and where in res.stderr  # a run with errors says so
    rows = [json.loads(line) for line in (run / "journal.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r.get("formulation") == "sat-boom")
    assert row["status"] == "error" and row["phase"] == "build" and where in row["message"]
    assert "return cells[(10, 0)]" in row["traceback"]
    res = cli(boom_env, "report", str(run), "--out", str(tmp_path / "report"))
    assert res.returncode == 0, res.stderr
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert where in summary and "sat-boom" in summary
    res = cli(boom_env, "report", str(run), "--out", str(tmp_path / "r2"), "--scatter",
              "sat-boom/cadical195", "--scatter", "sat-bom / cadical195")
    assert res.returncode == 2 and "did you mean sat-boom / cadical195" in res.stderr


NO_RETURN = formulation_source("SatForgets", "sat-forgets", "model = SatModel()\nmodel.add([1])",
                               description="builds a model and forgets to return it")


def test_a_build_without_return_is_a_build_error_saying_so(tmp_path: Path):
    (tmp_path / "plugin").mkdir()
    env = plugin_package(tmp_path / "plugin", "forgets-pkg", "0.1", {"sat_forgets": NO_RETURN},
                         {"shikaku.sat.sat-forgets": "forgets_pkg.sat_forgets"})
    said = ("sat-forgets: build returned None (missing `return`?): SatForgets.build "
            "(forgets_pkg.sat_forgets) must return the SatModel it built")
    res = cli(env, "solve", SEED, "--formulation", "sat-forgets", "--solver", "cadical195")
    assert res.returncode == 1 and said in res.stderr, res.stderr
    run = tmp_path / "run"
    cli(env, "run", SEED, "--formulation", "sat-forgets", "--solver", "cadical195", "--jobs",
        "1", "--time-limit", "20", "--out", str(run))
    rows = [json.loads(line) for line in (run / "journal.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r.get("formulation") == "sat-forgets")
    assert (row["status"], row["phase"], row["message"]) == ("error", "build", said)
    assert not schema_problem(row)


def test_list_marks_a_plugin_with_its_distribution(boom_env: dict[str, str]):
    res = cli(boom_env, "list")
    line = next(x for x in res.stdout.splitlines() if "sat-boom" in x)
    assert line.rstrip().endswith("[plugin: boom-pkg]")
    forms = json.loads(cli(boom_env, "list", "--json").stdout)["formulations"]
    assert {f["name"]: f["plugin"] for f in forms}["sat-boom"] == "boom-pkg"
    assert {f["name"]: f["plugin"] for f in forms}["sat-cover"] == ""


def test_solve_json_reports_a_skipped_task_as_an_error_saying_so(boom_env: dict[str, str]):
    path = ROOT / "tests" / "data" / "yinyang-3x4-empty.txt"
    res = cli(boom_env, "solve", str(path), "--formulation", "cpsat-seed", "--solver", "cpsat",
              "--json")
    out = json.loads(res.stdout)
    assert out["status"] == "error" and out["message"].startswith("skipped: ")


def test_died_of_names_the_signal_from_the_output_first_then_the_exit():
    from bench.failure import died_of

    cbc = "\n\nERROR while running Cbc. Signal SIGSEGV caught. Getting stack trace.\n..." \
          "\nERROR while running Cbc. Signal SIGABRT caught. Getting stack trace.\n"
    assert died_of(-6, cbc) == "SIGSEGV"
    assert died_of(-6, "no solution") == "SIGABRT"
    assert died_of(-11) == "SIGSEGV" and died_of(1, "Segmentation fault") == "SIGSEGV"
    assert died_of(0) == "" and died_of(1, "bad input") == ""
