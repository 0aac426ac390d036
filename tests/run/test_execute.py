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
