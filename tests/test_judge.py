"""The judging rules (bench/judge.py) hold every status rule, the task process's too, and
import nothing that would drag the formulations, the backends or the run, report and
command-line layers into every result's code digest (or import the judge back)."""

from __future__ import annotations

import ast
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import judge
from bench.records import Result
from tests.conftest import ROOT

#: what bench/judge.py may import besides the standard library: the records it reads and
#: writes, the instance, the puzzle rules that check a grid, the failure record
ALLOWED = {"bench.records", "bench.instance", "bench.puzzles", "bench.failure"}
#: ... and for a type only (under ``TYPE_CHECKING``): the solve's record, whose module imports
#: the backends and the registry
TYPE_ONLY = {"bench.solve"}
#: layers the judge must never load, even through what it imports
NEVER = ("bench.run", "bench.report", "bench.cli", "bench.backends", "bench.identity",
         "bench.registry", "bench.solve", "formulations")


def _imports(path: Path) -> dict[str, bool]:
    """Every module an import statement of ``path`` names (anywhere: function-level and
    conditional imports too), with whether it is imported under ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text())
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                   for s in node.body for n in ast.walk(s)}
    out: dict[str, bool] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, "a relative import in bench/judge.py"
            names = [node.module]
        else:
            continue
        for name in names:
            out[name] = out.get(name, True) and id(node) in typing_only
    return out


def test_the_judge_imports_the_standard_library_and_the_record_modules_only():
    imported = _imports(ROOT / "bench" / "judge.py")
    ours = {n for n in imported if n.split(".")[0] not in sys.stdlib_module_names}
    assert ours <= ALLOWED | TYPE_ONLY, sorted(ours - ALLOWED - TYPE_ONLY)
    assert all(imported[n] for n in ours & TYPE_ONLY), "bench.solve only for its type"
    assert ours >= ALLOWED  # and the allowed set no wider than what it imports


def test_importing_the_judge_loads_no_formulation_backend_or_run_module():
    code = ("import sys, bench.judge; print(*sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('bench', 'formulations')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    loaded = out.split()
    assert "bench.judge" in loaded
    assert [m for m in loaded if m.startswith(NEVER)] == []


def _res(**kw) -> Result:
    return Result(key="k", puzzle="p", instance="i", instance_path="i.txt", rows=1, cols=1,
                  formulation="f", kind="sat", solver="s", solver_version="1",
                  status="solved", grid=[["#"]], checked=True, **kw)


def test_a_memory_error_in_the_task_is_a_memout_and_a_crash_an_error():
    res = _res()
    judge.out_of_memory(res, MemoryError("cannot allocate"))
    assert (res.status, res.grid, res.checked) == ("memout", None, None)
    assert res.message == "MemoryError inside the task process: cannot allocate"
    res = _res()
    judge.out_of_memory(res, MemoryError())
    assert res.message == "MemoryError inside the task process"
    res = _res()
    judge.crashed(res, RuntimeError("boom\nsecond line"), "Traceback ...")
    assert (res.status, res.message, res.traceback) == ("error", "RuntimeError: boom",
                                                        "Traceback ...")


def test_a_task_its_dask_worker_failed_is_an_error_saying_how():
    res = _res()
    judge.worker_failed(res, RuntimeError("lost"), killed=True)
    assert (res.status, res.message, res.grid, res.checked) == (
        "error", "the task took its Dask worker down repeatedly: lost", None, None)
    judge.worker_failed(res, OSError("no route"), killed=False)
    assert (res.status, res.message) == ("error", "OSError: no route")


def test_the_task_process_decides_no_status_itself():
    """bench/run/task.py hands what the solve raised to the judge: it assigns no result's
    ``status`` or ``message`` (the run layer is outside every result's code digest)."""
    tree = ast.parse((ROOT / "bench" / "run" / "task.py").read_text())
    targets = [t for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AugAssign))
               for t in (node.targets if isinstance(node, ast.Assign) else [node.target])]
    named = [ast.unparse(n) for t in targets for n in ast.walk(t)
             if isinstance(n, ast.Attribute) and n.attr in ("status", "message", "checked")]
    assert named == []


def status_decisions(path: Path) -> list[str]:
    """The statuses a module decides: an assignment to a ``.status``, a ``status=`` keyword
    and the status argument of ``base_result`` (its third), each unless its value copies a
    status already decided: another result's (``r.status``), the judge's placeholder
    (:data:`bench.judge.UNJUDGED`, which a judge rule then replaces) or, in ``base_result``
    itself, its own parameter."""
    tree = ast.parse(path.read_text())
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                both = isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                    and len(t.elts) == len(node.value.elts)
                pairs = zip(t.elts, node.value.elts, strict=True) if both else [(t, node.value)]
                found += [v for k, v in pairs if v is not None
                          and any(isinstance(n, ast.Attribute) and n.attr == "status"
                                  for n in ast.walk(k))]
        elif isinstance(node, ast.Call):
            found += [k.value for k in node.keywords if k.arg == "status"]
            if ast.unparse(node.func).endswith("base_result") and len(node.args) > 2:
                found.append(node.args[2])
    own = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
           and f.name == "base_result" for n in ast.walk(f)}
    return [ast.unparse(v) for v in found
            if not (isinstance(v, ast.Attribute) and v.attr == "status")
            and not (isinstance(v, ast.Name) and v.id == "UNJUDGED")
            and not (isinstance(v, ast.Name) and v.id == "status" and id(v) in own)]




def test_no_module_of_the_run_layer_decides_a_status(tmp_path):
    """Every module under bench/run/ leaves statuses to bench/judge.py (the run layer is in no
    result's code digest): it copies a judged status or starts a record as
    :data:`bench.judge.UNJUDGED` for a judge rule to decide."""
    decided = {p.name: status_decisions(p) for p in sorted((ROOT / "bench" / "run").glob("*.py"))}
    assert {k: v for k, v in decided.items() if v} == {}
    planted = "def f(res):\n    res.status, res.message = 'timeout', 'x'\n" \
              "    Result(status='error'); base_result(t, None, 'memout'); res.status = r.status\n"
    (tmp_path / "probe.py").write_text(planted)
    assert status_decisions(tmp_path / "probe.py") == ["'timeout'", "'error'", "'memout'"]


def _solved(**kw):
    from bench.solve import Solved, SolveStats

    return Solved(**{"status": "solved", "stats": SolveStats(), "grid": [["#"]], **kw})


def test_no_status_but_solved_and_wrong_carries_an_answer(tmp_path):
    """Every rule that gives a status other than ``solved`` or ``wrong`` leaves no grid and no
    ``checked``, whatever the result held before (a partial result with an answer, a crash
    after the check, a count stopped early); ``wrong`` keeps the answer it rejects."""
    from bench.failure import Failure
    from bench.instance import read_instance
    from bench.records import Task
    from tests.conftest import SHIKAKU_SEEDS

    inst_path = tmp_path / "x.txt"  # no .sol beside it
    inst_path.write_text(SHIKAKU_SEEDS[0].read_text())
    inst, task = read_instance(inst_path), Task(str(inst_path), "f", "s", 3.0, 4096, 0, 1, 2)
    rules = {
        "crashed": lambda r: judge.crashed(r, RuntimeError("after the check"), "tb"),
        "failed": lambda r: judge.failed(r, Failure("solve", "boom", "tb")),
        "out_of_memory": lambda r: judge.out_of_memory(r, MemoryError()),
        "not_run": lambda r: judge.not_run(r, "left out"),
        "over_time_limit": lambda r: (setattr(r, "solve_s", 9.0),
                                      judge.over_time_limit(r, 3.0)),
        "ended killed": lambda r: judge.ended(r, "timeout", -9, False, [], "3 s"),
        "ended interrupted": lambda r: judge.ended(r, "interrupted", -9, False, [], ""),
        "ended exit": lambda r: judge.ended(r, None, 1, True, ["died"], ""),
        "memory said": lambda r: (setattr(r, "status", "error"), judge.memory_status(
            r, 100, None, 1, ["MemoryError"], 1.0, 0)),
        "memory kernel": lambda r: judge.memory_status(r, 100, None, 0, [], 1.0, 1),
    }
    for status in ("skipped", "infeasible", "timeout", "error", "unknown"):
        rules[f"conclude {status}"] = lambda r, s=status: judge.conclude(
            r, _solved(status=s, grid=None), task, inst)
    for status in ("timeout", "error", "wrong"):
        rules[f"count {status}"] = lambda r, s=status: judge.conclude(
            r, _solved(count_status=s, count_message="stopped", count=1), task, inst)
    seen = set()
    for what, rule in rules.items():
        res = _res()
        rule(res)
        seen.add(res.status)
        answer = (res.grid, res.checked)
        if res.status == "wrong":
            assert answer == ([["#"]], False), what
        else:
            assert res.status != "solved" and answer == (None, None), (what, res.status, answer)
    assert seen == {"error", "memout", "timeout", "skipped", "infeasible", "wrong"}


def test_no_status_but_solved_wrong_and_infeasible_carries_a_known_verdict(tmp_path):
    """A verdict against the known solution (``known``) stands beside the answer it judges:
    every rule that drops the answer drops the verdict and its message part (the report counts
    ``known`` False as a wrong answer); ``wrong`` keeps its answer's, ``infeasible`` its own."""
    from bench.instance import read_instance
    from bench.records import Task
    from tests.conftest import SHIKAKU_SEEDS

    given = SHIKAKU_SEEDS[0].parent / "gen-shikaku-10x10-s1-0.txt"
    inst_path = tmp_path / "x.txt"  # with its known solution, which the answer differs from
    inst_path.write_text(given.read_text())
    inst_path.with_suffix(".sol").write_text(given.with_suffix(".sol").read_text())
    inst, task = read_instance(inst_path), Task(str(inst_path), "f", "s", 3.0, 4096, 0, 1, 2)

    def counted(status: str) -> Result:
        res = _res()
        judge.conclude(res, _solved(count_status=status, count_message="stopped", count=1),
                       task, inst)
        return res

    assert (counted("").status, counted("").known) == ("solved", False)
    for status in ("timeout", "error"):  # a count stopped early: the count, no answer
        res = counted(status)
        assert (res.status, res.grid, res.checked, res.known) == (status, None, None, None)
    res = counted("wrong")
    assert (res.status, res.grid, res.checked) == ("wrong", [["#"]], False)
    res = _res()
    judge.conclude(res, _solved(status="infeasible", grid=None), task, inst)
    assert (res.status, res.known) == ("infeasible", False)
    for what, rule in {
        "over_time_limit": lambda r: (setattr(r, "solve_s", 9.0), judge.over_time_limit(r, 3)),
        "ended killed": lambda r: judge.ended(r, "timeout", -9, True, [], "3 s"),
        "memory kernel": lambda r: judge.memory_status(r, 100, None, 0, [], 1.0, 1),
        "crashed": lambda r: judge.crashed(r, RuntimeError("after the check"), "tb"),
    }.items():
        res = counted("")
        assert res.message.startswith(judge.DIFFERS)
        rule(res)
        assert (res.grid, res.checked, res.known) == (None, None, None), what
        assert "known solution" not in res.message, (what, res.message)
    old = dataclasses.replace(counted("timeout"), known=False,
                              message=f"stopped; {judge.DIFFERS}")  # judged by an older rule
    assert (judge.rejudged(old).known, judge.rejudged(old).message) == (None, "stopped")


def test_a_known_solution_that_is_not_utf8_names_the_byte_its_offset_and_line(tmp_path):
    sol = tmp_path / "x.sol"
    sol.write_bytes(b'[[1, 2],\n [3, "\xe9"]]\n')
    with pytest.raises(judge.KnownSolutionError) as e:
        judge.read_known_solution(str(tmp_path / "x.txt"))
    assert str(e.value) == f"{sol}:2: not UTF-8 text (invalid byte 0xe9 at offset 15)"
