"""Every status the task process gives is a rule of bench/judge.py (in every result's code
digest), not a decision of bench/run/execute.py (in none): an unreadable instance, a task that
cannot run here, code changed since the plan, the partial result of a first solve."""

from __future__ import annotations

import shutil

import pytest

from bench import judge
from bench.records import Task
from bench.run import execute as ex
from tests.conftest import SHIKAKU_SEEDS


def _spy(monkeypatch, name: str) -> list[str]:
    """Replace the judge's rule ``name`` as bench/run/execute.py calls it by one that records
    the call and applies the judge's own rule."""
    calls: list[str] = []
    rule = getattr(judge, name)

    def spied(res, *args):
        calls.append(name)
        rule(res, *args)

    monkeypatch.setattr(ex, name, spied)
    return calls


@pytest.mark.parametrize("case, rule, says", [
    ("unreadable", "unreadable", "x.txt"),
    ("no solver", "cannot_run", "no-such-solver"),
    ("code changed", "code_changed", "changed since the run was planned"),
])
def test_a_task_that_cannot_run_is_judged_by_a_judge_rule(tmp_path, monkeypatch, case, rule,
                                                          says):
    x = tmp_path / "x.txt"
    if case == "unreadable":
        x.write_text("not an instance\n")
    else:
        shutil.copy(SHIKAKU_SEEDS[0], x)
    task = Task(str(x), "cpsat-cover", "no-such-solver" if case == "no solver" else "cpsat",
                time_limit=20, code="code-0000000000000000" if case == "code changed" else "")
    calls = _spy(monkeypatch, rule)
    res = ex.execute(task)
    assert calls == [rule]
    assert (res.status, res.grid, res.checked, res.known) == ("error", None, None, None)
    assert says in res.message


def test_the_partial_result_of_a_first_solve_is_the_judges(tmp_path, monkeypatch):
    """The partial result written once the model is built stands as a ``timeout`` should the
    harness kill the task in its first solve (:func:`bench.judge.solving`)."""
    calls = _spy(monkeypatch, "solving")
    seen: list[tuple[str, str]] = []
    res = ex.execute(Task(str(SHIKAKU_SEEDS[0]), "cpsat-cover", "cpsat", time_limit=20),
                     progress=lambda r: seen.append((r.status, r.message)))
    assert calls == ["solving"] and res.status == "solved"
    assert ("timeout", "killed during the first solve") in seen
