"""The judging rules (bench/judge.py) hold every status rule, the task process's too, and
import nothing that would drag the formulations, the backends or the run, report and
command-line layers into every result's code digest (or import the judge back)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

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


def test_the_task_process_decides_no_status_itself():
    """bench/run/task.py hands what the solve raised to the judge: it assigns no result's
    ``status`` or ``message`` (the run layer is outside every result's code digest)."""
    tree = ast.parse((ROOT / "bench" / "run" / "task.py").read_text())
    targets = [t for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AugAssign))
               for t in (node.targets if isinstance(node, ast.Assign) else [node.target])]
    named = [ast.unparse(n) for t in targets for n in ast.walk(t)
             if isinstance(n, ast.Attribute) and n.attr in ("status", "message", "checked")]
    assert named == []
