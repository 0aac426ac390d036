"""The task writes its result from a shallow copy of its fields: the same JSON as the
record's ``to_dict``, on a real solved task (grid, effort counters, times)."""

from __future__ import annotations

import json

from bench.records import Result, Task
from bench.run.execute import execute
from bench.run.task import fields_of
from tests.conftest import ROOT


def test_the_written_fields_are_the_records_json():
    task = Task(str(ROOT / "instances" / "nurikabe" / "seed-p01.txt"), "sat-hybrid",
                "cadical195", 30.0, 8192, 0, 1, 0)
    res = execute(task)
    assert res.status == "solved" and res.grid and res.conflicts is not None
    assert json.dumps(fields_of(res)) == json.dumps(res.to_dict())
    assert Result.from_dict(json.loads(json.dumps(fields_of(res)))) == res
