"""What a report can tell of a run folder whose results may not be whole runs: a run writing
it now, a latest run that stopped before its end (no closing calibration in its environment
record) and how many of its planned tasks have no result, or, for a merged folder, what the
merge recorded of its inputs' latest runs that stopped (:func:`bench.run.merge.merge_runs`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from bench.run.lock import writer


def _stopped(record: dict[str, Any]) -> bool:
    """The run of this environment record began its tasks and did not end by itself: no
    closing calibration, which a run writes only then (an interrupt, a kill or an error that
    ended its tasks' loop leaves none)."""
    calibration = record.get("calibration")
    return isinstance(calibration, dict) and "start_s" in calibration \
        and "end_s" not in calibration


def unfinished(folder: Path, records: list[dict[str, Any]], df: pd.DataFrame) -> str:
    """Why the folder's results ``df`` may not be whole runs ("" when nothing says so): a run
    holds the folder's lock now; the latest run into it stopped before its end
    (:func:`stopped_note`); or, for a ``merge`` whose inputs' records are the latest, the
    latest run of one of its inputs did (:func:`merged_stopped`: what the merge knew of it)."""
    if (pid := writer(folder)) is not None:
        return (f"a run (pid {pid}) is writing this folder now: this report shows the {len(df)} "
                "results recorded so far, not the finished run")
    if not records or "merged_from" not in records[-1]:
        return stopped_note(records, df) if records and _stopped(records[-1]) else ""
    if not (stopped := merged_stopped(records)):
        return ""
    inputs = (_merge_record(records) or {}).get("merge")
    return (f"merged from {len(stopped)} run folder(s) whose latest run stopped before its end "
            "(each as it was when merged): " + "; ".join(f"{name}: {what}"
                                                         for name, what in stopped.items())
            + (" (counted in that input alone: another input may hold results of those tasks)"
               if isinstance(inputs, list) and len(inputs) > 1 else ""))


def _merge_record(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The record of the merge that made the folder (the last ``merge`` record that is not an
    input's), or None."""
    return next((r for r in reversed(records) if "merge" in r and "merged_from" not in r), None)


def merged_stopped(records: list[dict[str, Any]]) -> dict[str, str]:
    """Input -> what is known of its latest run, which stopped before its end, for a merged
    folder's ``records``: the merge's own account (its record's ``stopped``: each input's
    :func:`input_stopped` when it was merged). A merge that recorded none: each input
    (``merged_from``) whose latest record shows a stopped run, with "not recorded"."""
    merge = _merge_record(records)
    if merge is not None and isinstance(merge.get("stopped"), dict):
        return {str(k): str(v) for k, v in merge["stopped"].items()}
    last = {str(r["merged_from"]): r for r in records if "merged_from" in r}  # per input
    return {name: "how many of its planned tasks have no result was not recorded by the merge"
            for name, r in last.items() if _stopped(r)}


def input_stopped(folder: Path, records: list[dict[str, Any]], df: pd.DataFrame
                  ) -> dict[str, str]:
    """What a merge of ``folder`` (its ``records``, its results ``df``) records of latest runs
    that stopped before their end: the folder's own latest run (:func:`stopped_known`), or,
    for a merged folder, its inputs' (:func:`merged_stopped`, named ``FOLDER: INNER``)."""
    if not records:
        return {}
    if "merged_from" in records[-1]:
        return {f"{folder}: {k}": v for k, v in merged_stopped(records).items()}
    if not _stopped(records[-1]):
        return {}
    return {str(folder): stopped_known(records, df, str(folder))[1]}


def stopped_note(records: list[dict[str, Any]], df: pd.DataFrame) -> str:
    """What a report can tell of the latest run, which stopped before its end
    (:func:`stopped_known`), with the command that resumes it where tasks may have no
    result."""
    head = ("the latest run into this folder stopped before its end (interrupted, killed or "
            "ended by an error)")
    joint, known = stopped_known(records, df, "this folder")
    resume = "" if joint == " after " else "; the same `puzzlebench run` command resumes it"
    return f"{head}{joint}{known}{resume}"  # none missing: nothing to resume


def stopped_known(records: list[dict[str, Any]], df: pd.DataFrame, where: str
                  ) -> tuple[str, str]:
    """How many of the latest run's planned tasks have no result in the folder ``where``
    (``records``, its results ``df``): the joint to a sentence's head (": " or " after ") and
    the clause. A run records how many tasks it planned (its record's ``tasks``), not which,
    so the count is exact only where every task result in the folder is of its plan: it is the
    only run into the folder (its record the folder's only one), and its suite caps no pair (a
    capped pair's rows are recorded, not planned). Elsewhere the folder's other results may or
    may not be of its plan: fewer task results than planned tasks bound the missing ones from
    below, and as many say nothing. Where the suite's repetition gate may leave further
    repetitions out (:func:`_gated`; they leave no row), the count of an alone run is an upper
    bound, and elsewhere nothing can be said. A record without ``tasks`` tells nothing of the
    plan."""
    planned = records[-1].get("tasks")
    if not isinstance(planned, int) or isinstance(planned, bool) or planned < 0:
        return (": ", "it did not record how many tasks it planned, so whether some have no "
                "result is not known")
    tasks = df[df["formulation"].fillna("-") != "-"]  # an unreadable instance's row: no task
    have = int(tasks["key"].nunique())
    alone = len(records) == 1 and not _caps(records[-1])  # a record per run into the folder
    gated = _gated(records[-1])
    if alone and have >= planned:
        return (" after ", f"each of its {planned} planned tasks had a result: none is missing, "
                "but the run has no closing calibration (its machine's speed at the end is not "
                "known)")
    if alone or (have < planned and not gated):
        bound = "at most " if gated else "" if alone else "at least "
        verb = "has" if planned - have == 1 and not bound else "have"
        why = (" (the count includes the further repetitions the repetition gate may leave "
               f"out: one runs only where its first run answered in under {gated:g} s)"
               if gated else "")
        return (": ", f"{bound}{planned - have} of its {planned} planned tasks {verb} no "
                f"result{why}")
    return (": ", f"it planned {planned} tasks and {where} holds results of {have} tasks, not "
            "all of them necessarily of its plan (earlier runs', a capped pair's), and a run "
            "records how many tasks it planned, not which"
            + (", nor the repetitions its repetition gate leaves out" if gated else "")
            + ": whether some of its tasks have no result is not known")


def _gated(record: dict[str, Any]) -> float:
    """The repetition gate's threshold (``repeat_under`` s) where it may have left further
    repetitions of the record's run out (:func:`bench.run.session.gate`): a positive threshold
    and more than one run of a task (``repeat``, ``seeds`` or a tier's ``repeats``,
    ``seeds``); else 0."""
    under = record.get("repeat_under")
    if not isinstance(under, (int, float)) or isinstance(under, bool) or not under > 0:
        return 0.0
    counts = [record.get("repeat"), record.get("seeds")]
    tiers = record.get("tiers")
    for t in tiers.values() if isinstance(tiers, dict) else ():
        if isinstance(t, dict):
            counts += [t.get("repeats"), t.get("seeds")]
    return float(under) if any(isinstance(n, int) and n > 1 for n in counts) else 0.0


def _caps(record: dict[str, Any]) -> bool:
    """The run of this record may have recorded rows of tasks it did not plan: its suite caps
    a pair in a tier (:func:`bench.run.plan.make_plan`), or its record does not say."""
    tiers = record.get("tiers")
    if not isinstance(tiers, dict):
        return True
    return any(not isinstance(t, dict) or bool(t.get("capped")) for t in tiers.values())
