"""What the task process writes when its solve raises: the judge's verdict
(:func:`bench.judge.out_of_memory`, :func:`bench.judge.crashed`) as its final result."""

from __future__ import annotations

import json
import tempfile

import pytest

from bench.records import Task
from bench.run import execute, task
from tests.conftest import SHIKAKU_SEEDS


@pytest.mark.parametrize("raised, status, message", [
    (MemoryError("no room"), "memout", "MemoryError inside the task process: no room"),
    (RuntimeError("boom\nmore"), "error", "RuntimeError: boom"),
])
def test_what_the_solve_raised_is_judged(tmp_path, monkeypatch, raised, status, message):
    def raise_it(*args, **kwargs):
        raise raised

    monkeypatch.setattr(execute, "execute", raise_it)
    monkeypatch.setattr(task, "become_subreaper", lambda: None)
    monkeypatch.setattr(tempfile, "tempdir", tempfile.tempdir)  # main points both at its folder
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    t = Task(str(SHIKAKU_SEEDS[0]), "cpsat-cover", "cpsat", 3.0, 4096, 0, 1, 0)
    out = tmp_path / "result.json"
    assert task.main(json.dumps(t.to_dict()), str(out)) == 0
    res = json.loads(out.read_text())
    assert (res["status"], res["message"], res["final"]) == (status, message, True)
    assert res["grid"] is None and res["checked"] is None
    assert ("RuntimeError: boom" in res["traceback"]) == (status == "error")


def test_a_crash_after_the_check_writes_no_answer(tmp_path, monkeypatch):
    """The task's last partial result held a checked answer when its solve raised (a crash in
    the known solution's comparison, after the check): the ``error`` it writes carries
    neither the grid nor ``checked``."""
    def answer_then_raise(t, progress, on_start):
        res = execute.base_result(t, None, "solved")
        res.grid, res.checked = [[1]], True
        progress(res)
        raise RuntimeError("after the check")

    monkeypatch.setattr(execute, "execute", answer_then_raise)
    monkeypatch.setattr(task, "become_subreaper", lambda: None)
    monkeypatch.setattr(tempfile, "tempdir", tempfile.tempdir)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    t = Task(str(SHIKAKU_SEEDS[0]), "cpsat-cover", "cpsat", 3.0, 4096, 0, 1, 0)
    out = tmp_path / "result.json"
    assert task.main(json.dumps(t.to_dict()), str(out)) == 0
    res = json.loads(out.read_text())
    assert (res["status"], res["message"]) == ("error", "RuntimeError: after the check")
    assert (res["grid"], res["checked"]) == (None, None)
