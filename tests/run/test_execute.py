"""A task runs on the content it was planned for (bench/run/execute.py): a file that changed
after the plan read it gives an error result naming the change, never an answer of other
content under the planned task's key."""

from __future__ import annotations

import shutil

import pytest

from bench.instance import read_instance
from bench.puzzles.base import InstanceError
from bench.records import Task, instance_digest
from bench.run.execute import execute
from tests.conftest import SHIKAKU_SEEDS


def test_a_file_changed_since_the_plan_is_an_error_of_the_planned_task(tmp_path):
    x = tmp_path / "x.txt"
    shutil.copy(SHIKAKU_SEEDS[0], x)
    planned = instance_digest(x)
    assert read_instance(x, planned).rows > 0
    task = Task(str(x), "cpsat-cover", "cpsat", time_limit=20, digest=planned)
    assert execute(task).status == "solved"
    shutil.copy(SHIKAKU_SEEDS[1], x)
    with pytest.raises(InstanceError, match="changed since the run was planned"):
        read_instance(x, planned)
    res = execute(task)
    assert res.status == "error" and res.key == task.key and res.grid is None
    assert f"planned {planned}" in res.message and instance_digest(x) in res.message


EDITED = """
import json, sys
from pathlib import Path
from bench.backends import get_backend
from bench.identity import backend_code, formulation_code
from bench.registry import get_formulation
from bench.records import Task, instance_digest
from bench.run.execute import execute

instance, edit = sys.argv[1], sys.argv[2]
form, backend = get_formulation("shikaku", "cpsat-cover"), get_backend("cpsat")
task = Task(instance, "cpsat-cover", "cpsat", time_limit=20, digest=instance_digest(instance),
            code=formulation_code(type(form)), backend_code=backend_code(type(backend)))
if edit:  # between the plan and the task's execution
    path = Path(edit)
    path.write_text(path.read_text() + "# edited after the plan\\n")
res = execute(task)
print(json.dumps({"status": res.status, "message": res.message, "grid": res.grid}))
"""


@pytest.mark.parametrize("edit, says", [
    ("", None),
    ("formulations/shikaku/cpsat_cover.py", "the code of cpsat-cover changed"),
    ("bench/judge.py", "the code of cpsat-cover changed"),
    ("bench/backends/cpsat.py", "the code of solver cpsat changed"),
])
def test_code_edited_since_the_plan_is_an_error_of_the_planned_task(tmp_path, edit, says):
    """A real copy of ``bench`` and ``formulations``: a task whose formulation's, judging or
    solver's code was edited on disk after its digests were taken runs nothing and says so,
    in one line (its result would be recorded under the planned digest)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for pkg in ("bench", "formulations"):
        shutil.copytree(root / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__"))
    assert not edit or (tmp_path / edit).is_file()
    out = subprocess.run(
        [sys.executable, "-c", EDITED, str(SHIKAKU_SEEDS[0]), str(tmp_path / edit) if edit else ""],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True,
        text=True, check=True).stdout
    res = json.loads(out.splitlines()[-1])
    if says is None:
        assert res["status"] == "solved", res
        return
    assert res["status"] == "error" and res["grid"] is None, res
    assert res["message"].startswith(says) and "since the run was planned" in res["message"]
    assert "\n" not in res["message"]
