"""Values that are no measurement (:func:`bench.records.schema_problem`): a result holds a
positive finite time limit, and its measured seconds and memory sizes are finite and not
negative (None where the field is optional). Every writer records its task's limit, which the
command line and the suites take only positive; the readers of journals and tables skip a
result that breaks this (tests/run/test_table_samples.py)."""

from __future__ import annotations

import math

import pytest

from bench.records import Result, schema_problem

#: the measured seconds and sizes of a result
MEASURED = ("build_s", "solve_s", "solver_s", "setup_s", "wall_s", "cpu_s", "overshoot_s",
            "propagator_s", "peak_rss_mb", "base_rss_mb", "memory_limit_mb", "memory_gb", "load")


def _line(**changes) -> dict:
    res = Result(key="k", puzzle="shikaku", instance="i", instance_path="i.txt", rows=2, cols=2,
                 formulation="f", kind="sat", solver="s", solver_version="v", status="solved",
                 build_s=0.1, solve_s=0.2, overhead_s=0.01, time_limit=30.0)
    return {**res.to_dict(), **changes}


def test_a_sound_result_and_its_optional_times_missing():
    assert schema_problem(_line()) == ""
    assert schema_problem(_line(build_s=None, solve_s=None, time_limit=5)) == ""
    assert schema_problem(_line(overhead_s=-0.002)) == ""  # a difference of two clocks


@pytest.mark.parametrize("limit", [0.0, 0, -1.0, math.inf, math.nan, None, "30"])
def test_a_result_without_a_positive_finite_limit_is_refused(limit):
    assert "time_limit" in schema_problem(_line(time_limit=limit))


def test_a_result_without_its_limit_is_refused():
    line = _line()
    del line["time_limit"]
    assert schema_problem(line) == "no 'time_limit'"


@pytest.mark.parametrize("field", MEASURED)
@pytest.mark.parametrize("value", [-5.0, math.inf, math.nan])
def test_a_negative_or_non_finite_time_or_size_is_refused(field, value):
    assert schema_problem(_line(**{field: value})).startswith(f"{field!r} is")


def test_a_non_finite_overhead_is_refused():
    assert "overhead_s" in schema_problem(_line(overhead_s=math.inf))
