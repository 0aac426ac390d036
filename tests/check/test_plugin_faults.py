"""`puzzlebench check`, `solve` and `run` on a puzzle package written by `new-puzzle` (as a
reader of docs/adding-a-puzzle.md starts), with one mistake made in it: each is reported as
that mistake, by the step it is in, and `check` passes nothing it did not test.

The package is imported from its folder, as ``pip install -e`` leaves it; after each test the
registries are as before and its modules forgotten. Each test writes a puzzle of its own name
(the tiny boards are cached by puzzle name).
"""

from __future__ import annotations

import importlib
import itertools
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import bench.registry
from bench.backends import get_backend
from bench.check import Check, check_variant
from bench.cli import main
from bench.cli.solve import _trace
from bench.instance import read_instance
from bench.puzzles import puzzle_names
from bench.puzzles import registry as puzzle_registry
from bench.records import Task
from bench.registry import formulations, get_formulation
from bench.run.execute import execute
from bench.scaffold.puzzle import write_puzzle
from bench.solve import Solved, solve

_NAMES = itertools.count()

#: what the mistakes replace in the generated files
VERIFY = "    def verify(self, inst: Instance, grid: SolutionGrid) -> list[str]:\n"
RETURN = "        return problems\n\n    def render"
DECODE = "    def decode("


class Plugin:
    """A puzzle package as ``new-puzzle`` writes it, in ``folder``, under the name ``name``."""

    def __init__(self, folder: Path) -> None:
        self.name = f"checkfault{next(_NAMES)}"
        self.folder = folder
        write_puzzle(self.name, folder)
        self.package = folder / f"puzzlebench_{self.name}"

    def edit(self, file: str, old: str, new: str) -> None:
        path = self.package / file
        text = path.read_text()
        assert text.count(old) == 1, (file, old)
        path.write_text(text.replace(old, new))

    def load(self) -> None:
        importlib.import_module(f"puzzlebench_{self.name}.rules")
        importlib.import_module(f"puzzlebench_{self.name}.sat_direct")

    def checks(self) -> dict[str, Check]:
        form = get_formulation(self.name, "sat-direct")
        return {c.name: c for c in check_variant(form, get_backend("cadical195"), 20.0)}

    def instance(self) -> Path:
        return self.package / "data" / f"{self.name}-6x6.txt"

    def solve(self, count: int | None = None) -> Solved:
        return solve(read_instance(self.instance()), get_formulation(self.name, "sat-direct"),
                     get_backend("cadical195"), time.perf_counter() + 20, count)


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], Plugin]]:
    """``plugin()``: a new puzzle package on ``sys.path``; edit it, then ``load()`` it."""
    puzzle_names()
    formulations()
    for module, names in ((puzzle_registry, ("_PUZZLES", "_modules")),
                          (bench.registry, ("_FORMULATIONS", "_imported"))):
        for name in names:
            monkeypatch.setattr(module, name, type(getattr(module, name))(getattr(module, name)))
    made: list[Plugin] = []

    def make() -> Plugin:
        made.append(Plugin(tmp_path / f"p{len(made)}"))
        monkeypatch.syspath_prepend(str(made[-1].folder))
        return made[-1]

    yield make
    for p in made:
        for name in [m for m in sys.modules if m.split(".")[0] == f"puzzlebench_{p.name}"]:
            del sys.modules[name]


def test_the_package_as_written_passes(plugin: Callable[[], Plugin]):
    p = plugin()
    p.load()
    assert {n: c.status for n, c in p.checks().items()} == {
        "solve": "pass", "unsat": "pass", "exact": "pass", "count": "pass"}


def test_tiny_boards_the_puzzle_refuses_fail_the_exact_check_and_say_so(
        plugin: Callable[[], Plugin], capsys: pytest.CaptureFixture[str]):
    p = plugin()
    p.edit("tiny.py", "lambda rng: str(rng.randint(0, 1))", 'lambda rng: "9"')
    p.load()
    assert main(["check", f"{p.name}:sat-direct", "--solver", "cadical195"]) == 1
    exact = [line for line in capsys.readouterr().out.splitlines() if line[4:11] == " exact "]
    assert len(exact) == 1 and exact[0].startswith("FAIL exact"), exact
    assert "no tiny board was tested" in exact[0], exact
    assert "60 were refused by parse_token or validate (e.g. " in exact[0], exact
    assert "'9' is not 0, 1 or '.'" in exact[0] and "0 had more than 6 solutions" in exact[0]


def test_tiny_boards_all_with_too_many_solutions_fail_the_exact_check(
        plugin: Callable[[], Plugin]):
    p = plugin()
    p.edit("rules.py", VERIFY, VERIFY + "        return []\n")  # every grid a solution
    p.load()
    exact = p.checks()["exact"]
    assert exact.status == "fail", exact.line()
    assert "0 were refused by parse_token or validate" in exact.detail, exact.detail
    assert "had more than 6 solutions" in exact.detail, exact.detail


def test_a_verify_that_returns_none_is_said_by_check_solve_and_run(
        plugin: Callable[[], Plugin]):
    p = plugin()
    p.edit("rules.py", RETURN, "        problems  # the return forgotten\n\n    def render")
    p.load()
    said = f"verify returned None (missing `return`?): {p.name.capitalize()}.verify in " \
           f"puzzlebench_{p.name}.rules must return the list"
    got = p.checks()
    assert got["solve"].status == "fail" and said in got["solve"].detail, got["solve"].line()
    assert got["exact"].status == "fail" and said in got["exact"].detail, got["exact"].line()
    solved = p.solve()
    assert solved.status == "error" and said in solved.message, solved
    assert solved.failure is not None and solved.failure.phase == "verify"
    res = execute(Task(str(p.instance()), "sat-direct", "cadical195", time_limit=20))
    assert (res.status, res.phase) == ("error", "verify") and said in res.message, res


def test_a_verify_that_raises_is_the_puzzles_fault_in_check_solve_and_run(
        plugin: Callable[[], Plugin]):
    p = plugin()
    p.edit("rules.py", VERIFY, VERIFY + '        raise KeyError("oops")\n')
    p.load()
    line = next(i for i, text in enumerate((p.package / "rules.py").read_text().splitlines(), 1)
                if "oops" in text)
    said = (f"sat-direct: verify: KeyError: 'oops' at puzzlebench_{p.name}/rules.py:{line}, in "
            f"the {p.name} puzzle's rules ({p.name.capitalize()}.verify in "
            f"puzzlebench_{p.name}.rules), not the formulation")
    got = p.checks()  # no traceback out of check
    assert got["solve"].status == "fail" and said in got["solve"].detail, got["solve"].line()
    assert got["exact"].status == "fail" and said.split(": ", 1)[1] in got["exact"].detail
    solved = p.solve()
    assert solved.status == "error" and solved.message == said, solved.message
    assert solved.failure is not None and solved.failure.phase == "verify"
    assert "KeyError: 'oops'" in solved.failure.traceback
    shown = _trace(solved.failure.traceback, p.name, "sat-direct", False, "verify")
    assert shown.splitlines()[0] == "in the puzzle's rules (-v: the whole traceback):", shown
    assert f"rules.py:{line} in verify" in shown, shown
    res = execute(Task(str(p.instance()), "sat-direct", "cadical195", time_limit=20))
    assert (res.status, res.phase, res.message) == ("error", "verify", said)


def test_a_skip_that_raises_fails_the_checks_and_names_the_skip(plugin: Callable[[], Plugin]):
    p = plugin()
    p.edit("sat_direct.py", DECODE, "    def skip(self, inst: Instance) -> str | None:\n"
           '        raise KeyError("oops")\n\n' + DECODE)
    p.load()
    got = p.checks()
    for name in ("solve", "unsat", "exact"):
        assert got[name].status == "fail", got[name].line()
        assert "sat-direct: skip: KeyError: 'oops' at " in got[name].detail, got[name].line()


def test_a_skip_that_returns_true_skips_as_run_does(plugin: Callable[[], Plugin]):
    """A reason that is not a str is a reason all the same (said as it is); a check whose every
    instance was skipped is not applicable, never passed."""
    p = plugin()
    p.edit("sat_direct.py", DECODE, "    def skip(self, inst: Instance) -> str | None:\n"
           "        return True  # type: ignore[return-value]\n\n" + DECODE)
    p.load()
    got = p.checks()
    for name in ("solve", "unsat", "exact", "count"):
        assert got[name].status == "skip", got[name].line()
    assert got["solve"].detail == "all 1 instance(s) skipped by the variant (True)"
    assert got["exact"].detail == "all 4 instance(s) skipped by the variant (True)"
    solved = p.solve()
    assert (solved.status, solved.message) == ("skipped", "sat-direct: True")


def test_a_block_that_returns_none_is_said_to_return_none(plugin: Callable[[], Plugin]):
    p = plugin()
    p.edit("sat_direct.py", "        return True\n", "        pass\n")
    p.load()
    count = p.checks()["count"]
    assert count.status == "fail", count.line()
    assert "returned None: return True once the grid is excluded" in count.detail, count.detail
    assert p.solve(count=2).count_message == count.detail


def test_a_separate_that_raises_fails_the_lazy_check(plugin: Callable[[], Plugin]):
    p = plugin()
    p.edit("sat_direct.py", '    description = ', '    lazy = True\n    description = ')
    p.edit("sat_direct.py", DECODE, "    def separate(self, inst: Instance, model: SatModel, "
           "value: Value) -> int:\n        raise KeyError(\"oops\")\n\n" + DECODE)
    p.load()
    lazy = p.checks()["lazy"]
    assert lazy.status == "fail", lazy.line()
    assert "sat-direct: separate: KeyError: 'oops'" in lazy.detail, lazy.detail


def test_a_lazy_check_whose_every_solve_failed_before_the_loop_is_not_passed(
        plugin: Callable[[], Plugin]):
    p = plugin()
    p.edit("sat_direct.py", '    description = ', '    lazy = True\n    description = ')
    p.edit("sat_direct.py", "        m = SatModel()\n",
           '        m = SatModel()\n        raise KeyError("oops")\n')
    p.load()
    lazy = p.checks()["lazy"]
    assert lazy.status == "skip", lazy.line()
    assert "no loop ran to its end" in lazy.detail and "build: KeyError" in lazy.detail
