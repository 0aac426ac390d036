"""Which machine ran which tasks: on a cluster the report groups timings by host and warns
when one pair's tasks ran on machines of different types (their times do not compare); and
the machine's state during the run (its samples in ``environment.json``): a run on a busy
machine is said to be disturbed."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

import pandas as pd

from bench.identity import MACHINE_FIELDS, machine_id, machine_label
from bench.report.units import duration_range
from bench.run.storage import load_environment

#: the times in seconds, printed with their unit like every time of the report
COLUMNS = ["host", "machine", "tasks", "solved", "median_time_s", "median_overhead_s"]


def machine_types(folder: str | Path) -> dict[str, str]:
    """host -> machine type (CPU model, cores, memory) from every environment record of the
    run folder: the client's and, for a Dask run, each worker's."""
    out: dict[str, str] = {}
    for rec in load_environment(folder):
        workers = rec.get("workers")
        for r in [rec, *(workers.values() if isinstance(workers, dict) else [])]:
            if isinstance(r, dict) and r.get("host"):
                out[str(r["host"])] = (f"{r.get('cpu', '?')}, {r.get('cores', '?')} cores, "
                                       f"{r.get('memory_gb', '?')} GB")
    return out


def _hosts(t: pd.DataFrame) -> pd.Series:
    return t["host"].fillna("").replace("", "?") if "host" in t else pd.Series("?", t.index)


def _ran(t: pd.DataFrame) -> pd.DataFrame:
    """The rows of tasks that ran somewhere: a result recorded without running (left out by
    the ladder rule, or a variant that cannot run here) has no host and ran on no machine."""
    return t[t["host"].fillna("").astype(str) != ""] if "host" in t else t


def table(t: pd.DataFrame, types: dict[str, str]) -> pd.DataFrame:
    """One row per host that ran tasks (empty when all ran on one); results recorded without
    running are on no host and not counted."""
    t = _ran(t)
    hosts = _hosts(t)
    if hosts.nunique() < 2:
        return pd.DataFrame(columns=COLUMNS)
    rows: list[list[Any]] = []
    for host, g in t.groupby(hosts, sort=True):
        rows.append([host, types.get(str(host), "unknown"), len(g),
                     int((g["status"] == "solved").sum()),
                     float(g["time_s"].median()),
                     float(g["overhead_s"].median())
                     if "overhead_s" in g and g["overhead_s"].notna().any() else math.nan])
    return pd.DataFrame(rows, columns=COLUMNS)


def mixed(t: pd.DataFrame, types: dict[str, str]) -> list[str]:
    """A warning per pair whose tasks ran on more than one machine type (results recorded
    without running left out)."""
    t = _ran(t)
    kinds = _hosts(t).map(lambda h: types.get(h, f"unknown ({h})"))
    out = []
    for pair, g in kinds.groupby(t["pair"], sort=True):
        if g.nunique() > 1:
            out.append(f"{pair}: its tasks ran on {g.nunique()} machine types "
                       f"({'; '.join(sorted(g.unique()))}); its times do not compare")
    return out


def machine_of(t: pd.DataFrame, types: dict[str, str]) -> pd.DataFrame:
    """Per row its machine type: ``machine_id`` and ``machine_label`` from the result's own
    machine columns (CPU, cores, memory, Python), else from its host's environment record
    (results written before they carried their machine); a result with neither (a task
    recorded without running) takes the machine type of the others when they have only one,
    else it is "unknown machine"."""
    cols = [c for c in MACHINE_FIELDS if c in t]
    rows: list[dict[str, Any]] = [{str(k): v for k, v in r.items()}
                                  for r in t[cols].to_dict("records")] if cols \
        else [{} for _ in range(len(t))]
    hosts = _hosts(t)
    ids, labels = [], []
    for parts, host in zip(rows, hosts, strict=True):
        if machine_id(parts):
            ids.append(machine_id(parts))
            labels.append(machine_label(parts))
        elif host in types:
            ids.append("m-" + hashlib.sha256(types[host].encode()).hexdigest()[:8])
            labels.append(types[host])
        else:
            ids.append("unknown")
            labels.append("unknown machine")
    known = {(i, label) for i, label in zip(ids, labels, strict=True) if i != "unknown"}
    if len(known) == 1:  # results measured nowhere (recorded not run) go with the only type
        only_id, only_label = known.pop()
        labels = [only_label if i == "unknown" else label
                  for i, label in zip(ids, labels, strict=True)]
        ids = [only_id if i == "unknown" else i for i in ids]
    return pd.DataFrame({"machine_id": ids, "machine_label": labels}, index=t.index)


def provenance(df: pd.DataFrame, run: str) -> list[str]:
    """Where the results came from: how many this run produced and, per other origin run
    (reused by ``run --reuse`` or combined by ``merge``), how many, when and on what."""
    t = df[df["formulation"].fillna("-") != "-"]
    origin = t["run"].fillna("").astype(str) if "run" in t else pd.Series("", index=t.index)
    when = t["finished"].fillna("").astype(str) if "finished" in t \
        else pd.Series("", index=t.index)
    ids = machine_of(t, {})["machine_id"]
    lines = []
    for name, g in t.groupby(origin, sort=True):
        w = when[g.index]
        days = sorted({x[:10] for x in w if x})
        dates = (days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}") if days \
            else "date unknown"
        on = ", ".join(sorted(set(ids[g.index])))
        what = ("produced in this run" if name == run else
                "of unknown origin (written before results recorded their run)" if not name
                else f"reused or merged from run {name}")
        lines.append(f"{len(g):,} of {len(t):,} results {what} ({dates}; machine {on})")
    if len(lines) == 1 and origin.eq(run).all():
        return [f"All {len(t):,} results were produced in this run."]
    return lines


def _at(x: Any) -> pd.Timestamp | None:
    """An ISO date and time as a UTC timestamp (None for anything else)."""
    try:
        t = pd.Timestamp(x) if isinstance(x, str) and x else None
    except ValueError:
        return None
    return None if t is None or t is pd.NaT else \
        (t.tz_localize("UTC") if t.tzinfo is None else t.tz_convert("UTC"))


def _span(rec: dict[str, Any], starts: list[pd.Timestamp]) -> tuple[pd.Timestamp, Any] | None:
    """The span of time an invocation ran its tasks in: from its record's ``recorded_at`` to
    its last machine sample when it ended (a closing calibration), else to the next
    invocation's start (None for the last: open); None for a record without a date."""
    from bench.run.noise import samples_of

    start = _at(rec.get("recorded_at"))
    if start is None:
        return None
    cal = rec.get("calibration")
    last = [a for s in samples_of(rec) if (a := _at(s.get("at"))) is not None]
    if isinstance(cal, dict) and isinstance(cal.get("end_s"), int | float) and last:
        return start, max(last)
    later = [s for s in starts if s > start]
    return start, (min(later) if later else None)


def measuring(records: list[dict[str, Any]], t: pd.DataFrame) -> list[dict[str, Any]]:
    """The environment records of the invocations that ran tasks, in their order: those in
    whose span (:func:`_span`; a record with a ``calibration``, which every invocation takes
    at its start) a result of ``t`` finished (its ``finished`` time) on the
    record's host or one of its workers' (a result without a host was recorded without
    running, and counts only where no result names a host); a result in two spans (a second
    they share) goes with the earlier invocation. An invocation that ran no
    task (a resume with every task done) is left out: the machine's state then says nothing
    of the results. Where no record can be told so (no dates, or no dated result in any
    span), every record."""
    spans_of = [_at(r.get("recorded_at")) for r in records]
    starts = [s for s in spans_of if s is not None]
    fin = pd.to_datetime(t["finished"] if "finished" in t else
                         pd.Series(None, index=t.index, dtype=object),
                         utc=True, errors="coerce", format="ISO8601")
    hosts = t["host"].fillna("").astype(str) if "host" in t else pd.Series("", index=t.index)
    taken = pd.Series(False, index=fin.index)
    hosted = bool((hosts != "").any())  # results that name no host at all: dates alone
    ran: set[int] = set()
    # an invocation's record has a calibration (a merge's own record has none: it ran nothing)
    order = sorted((i for i, s in enumerate(spans_of) if s is not None and isinstance(
        records[i].get("calibration"), dict)), key=lambda i: (spans_of[i], i))
    for i in order:
        span = _span(records[i], starts)
        if span is None:
            continue
        workers = records[i].get("workers")
        own = {str(records[i].get("host") or "")} | (
            {str(w.get("host")) for w in workers.values() if isinstance(w, dict)}
            if isinstance(workers, dict) else set())
        inside = ~taken & (fin >= span[0])
        if span[1] is not None:
            inside &= fin <= span[1]
        if own != {""} and hosted:
            inside &= hosts.isin(own)
        if inside.any():
            ran.add(i)
            taken |= inside
    return [r for i, r in enumerate(records) if i in ran] if ran else list(records)


def started(rec: dict[str, Any]) -> str:
    """When an invocation started, as the report prints it ("?" unknown)."""
    at = _at(rec.get("recorded_at"))
    return at.strftime("%Y-%m-%d %H:%M:%S UTC") if at is not None else "?"


def state_rows(records: list[dict[str, Any]]) -> list[list[str]]:
    """Environment-table rows of the machine's state while the run's invocations that ran
    tasks (:func:`measuring`) ran, from the samples of their records
    (:class:`bench.run.noise.Monitor`): the calibration loop's range, the highest load average,
    other processes' highest CPU share, and whether the run was disturbed
    (:func:`disturbances`)."""
    from bench.run.noise import samples_of

    samples = [s for r in records for s in samples_of(r)]
    if not samples:
        return []

    def values(k: str) -> list[float]:
        return [float(s[k]) for s in samples if isinstance(s.get(k), int | float)]

    cal, load, others = values("calibration_s"), values("load1"), values("others_cpu")
    rows = [["machine samples", f"{len(samples)} ({samples[0].get('at', '?')} to "
                                f"{samples[-1].get('at', '?')})"]]
    if cal:
        rows.append(["calibration loop in the samples", duration_range(min(cal), max(cal))])
    if load:
        rows.append(["load average (1 min), highest", f"{max(load):.2f}"])
    if others:
        rows.append(["other processes' CPU share, highest", f"{max(others):.0%}"])
    why = disturbances(records)
    rows.append(["disturbed", "; ".join(why) if why else "no (the samples show a quiet "
                 "machine)"])
    return rows


def disturbances(records: list[dict[str, Any]]) -> list[str]:
    """Why the machine was disturbed (:func:`bench.run.noise.disturbance`) in each of the
    invocations ``records`` (those that ran tasks, :func:`measuring`): one invocation's
    reasons as they are; of several, one phrase per disturbed invocation, naming its start."""
    from bench.run.noise import disturbance

    if len(records) == 1:
        return disturbance(records[0])
    return [f"in the invocation started {started(r)}, " + " and ".join(why)
            for r in records if (why := disturbance(r))]


def disturbed(records: list[dict[str, Any]]) -> list[str]:
    """The report's warning when the machine was disturbed while the run's invocations that
    ran tasks ran (:func:`disturbances`; none when it was not, or there are no samples)."""
    why = disturbances(records)
    if not why:
        return []
    return ["This run was disturbed: " + "; ".join(why) + ". Its times are slower than the "
            "machine's, and time limits may have turned slow-downs into timeouts: its "
            "verdicts may differ from a run on a quiet machine."]
