"""The report groups timings by machine and warns when one pair's tasks ran on
machines of different types; the machine's state it reports (the disturbed note, the
Environment table) is that of the invocations that ran tasks, every one of them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd

from bench.report import machines, write_report


def _env(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    client = {"host": "client", "cpu": "AMD EPYC", "cores": 2, "memory_gb": 24.0}
    workers = {"tcp://a:1": {"host": "a", "cpu": "AMD EPYC", "cores": 2, "memory_gb": 24.0},
               "tcp://b:1": {"host": "b", "cpu": "Intel Xeon", "cores": 8, "memory_gb": 64.0}}
    (run / "environment.json").write_text(json.dumps([{**client, "workers": workers}]))
    return run


def test_machine_types_come_from_the_client_and_every_worker(tmp_path: Path) -> None:
    types = machines.machine_types(_env(tmp_path))
    assert types == {"client": "AMD EPYC, 2 cores, 24.0 GB", "a": "AMD EPYC, 2 cores, 24.0 GB",
                     "b": "Intel Xeon, 8 cores, 64.0 GB"}


def test_a_pair_on_two_machine_types_is_warned_one_on_one_type_is_not(tmp_path: Path) -> None:
    types = machines.machine_types(_env(tmp_path))
    t = pd.DataFrame({"pair": ["p / s", "p / s", "q / s", "q / s"],
                      "host": ["a", "b", "a", "a"], "status": ["solved"] * 4,
                      "time_s": [0.1, 0.2, 0.3, 0.5], "overhead_s": [0.01, 0.02, 0.01, 0.03]})
    warn = machines.mixed(t, types)
    assert len(warn) == 1 and warn[0].startswith("p / s: its tasks ran on 2 machine types")
    tab = machines.table(t, types)
    assert list(tab["host"]) == ["a", "b"] and list(tab["tasks"]) == [3, 1]
    assert tab.iloc[0]["median_time_s"] == 0.3 and tab.iloc[1]["machine"].startswith("Intel")


def test_a_result_measured_nowhere_goes_with_the_only_machine_type() -> None:
    one = {"cpu": "AMD EPYC", "cores": 2, "memory_gb": 24.0, "python": "3.11.7"}
    t = pd.DataFrame([one, one, {"cpu": None, "cores": None, "memory_gb": None, "python": None}])
    ids = machines.machine_of(t, {})["machine_id"]
    assert ids.nunique() == 1 and ids.iloc[0] != "unknown"
    other = {**one, "cpu": "Intel Xeon"}
    t2 = pd.DataFrame([one, other, {"cpu": None, "cores": None, "memory_gb": None,
                                    "python": None}])
    assert list(machines.machine_of(t2, {})["machine_id"])[2] == "unknown"


def test_results_recorded_without_running_are_on_no_machine(tmp_path: Path) -> None:
    types = machines.machine_types(_env(tmp_path))
    t = pd.DataFrame({"pair": ["p / s", "p / s", "q / s"], "host": ["a", None, ""],
                      "status": ["solved", "timeout", "timeout"], "time_s": [0.1, 20.0, 20.0]})
    assert machines.mixed(t, types) == [] and machines.table(t, types).empty
    t.loc[2, "host"] = "b"  # q / s ran on b, p / s on a: two hosts, no pair on two types
    tab = machines.table(t, types)
    assert list(tab["host"]) == ["a", "b"] and list(tab["tasks"]) == [1, 1]
    assert machines.mixed(t, types) == []


def test_one_machine_gives_no_section(tmp_path: Path) -> None:
    t = pd.DataFrame({"pair": ["p / s"], "host": ["a"], "status": ["solved"], "time_s": [0.1]})
    assert machines.table(t, {}).empty and machines.mixed(t, {"a": "x"}) == []


def test_the_report_of_a_mixed_machine_run_says_so(mixed_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(mixed_run, run)
    (run / "results.parquet").unlink()  # rebuilt from the journal, with one task moved
    lines = (run / "journal.jsonl").read_text().splitlines()
    rows = [json.loads(ln) for ln in lines]
    pairs = [(r["formulation"], r["solver"]) for r in rows]
    i = next(i for i, p in enumerate(pairs) if pairs.count(p) > 1)  # a pair with 2+ tasks
    first = {**rows[i], "host": "elsewhere"}
    lines[i] = json.dumps(first)
    (run / "journal.jsonl").write_text("\n".join(lines) + "\n")
    envs = json.loads((run / "environment.json").read_text())
    envs[-1]["workers"] = {"tcp://x:1": {"host": "elsewhere", "cpu": "Other CPU", "cores": 64}}
    (run / "environment.json").write_text(json.dumps(envs))
    out = write_report(run, tmp_path / "rep")
    md = (out / "summary.md").read_text()
    assert "## Machines" in md and "Other CPU" in md
    assert f"{first['formulation']} / {first['solver']}: its tasks ran on 2 machine types" in md


def _record(start: str, samples: list[str], ended: bool = True, host: str = "h") -> dict:
    return {"recorded_at": f"2026-12-02T{start}+00:00", "host": host,
            "calibration": {"start_s": 0.1, **({"end_s": 0.1} if ended else {})},
            "samples": [{"at": f"2026-12-02T{a}+00:00"} for a in samples]}


def test_only_the_invocations_that_ran_tasks_are_measuring() -> None:
    ran = _record("10:00:00", ["10:00:01", "10:05:00"])
    noop = _record("10:05:00", ["10:05:00", "10:05:01"])  # began in the second ran ended
    later = _record("10:10:00", ["10:10:01", "10:12:00"])
    stopped = _record("10:20:00", ["10:20:01"], ended=False)  # no closing sample: open span
    elsewhere = _record("10:30:00", ["10:30:01", "10:31:00"], host="other")
    records = [ran, noop, later, stopped, elsewhere]
    t = pd.DataFrame({"finished": [f"2026-12-02T{x}+00:00" for x in
                                   ("10:00:30", "10:05:00", "10:05:01", "10:11:00", "10:25:00",
                                    "10:30:30")],
                      "host": ["h", "h", "", "h", "h", "h"]})
    # 10:05:01 was recorded without running (no host): the no-op ran nothing; the 10:30:30
    # result ran on h, not on the other host: no invocation on h ran then
    assert machines.measuring(records, t) == [ran, later, stopped]
    # results that name no host are dated alone
    assert machines.measuring(records, t.assign(host="")) == [ran, noop, later, stopped,
                                                               elsewhere]
    # a merge's own record (no calibration) is no invocation
    header = {"merge": ["a", "b"], "recorded_at": "2026-12-02T09:00:00+00:00"}
    early = pd.DataFrame({"finished": ["2026-12-02T09:30:00+00:00"], "host": ["h"]})
    assert machines.measuring([header, *records], pd.concat([early, t])) == [ran, later, stopped]
    # results without a date, or records without one, leave every record
    assert machines.measuring(records, t.assign(finished=None)) == records
    assert machines.measuring([{"host": "h"}, {}], t) == [{"host": "h"}, {}]


def _with_invocation(src: Path, dst: Path, first: dict, added: dict) -> Path:
    """A copy of the run ``src`` whose record is updated with ``first`` and followed by a
    record of an invocation ``added`` one hour later that ran no task."""
    shutil.copytree(src, dst)
    envs = json.loads((dst / "environment.json").read_text())
    envs[-1].update(first)
    at = pd.Timestamp(envs[-1]["recorded_at"]) + pd.Timedelta(hours=1)
    stamp = at.isoformat(timespec="seconds")
    envs.append({**envs[-1], "recorded_at": stamp, "calibration": {"start_s": 0.2, "end_s": 0.2},
                 "samples": [{"at": stamp, **added}, {"at": stamp, **added}]})
    (dst / "environment.json").write_text(json.dumps(envs))
    return dst


QUIET = {"calibration_s": 0.1, "load1": 0.5, "others_cpu": 0.01}
BUSY = {"calibration_s": 0.1, "load1": 6.2, "others_cpu": 0.55}


def test_an_invocation_that_ran_nothing_says_nothing_of_the_machine(single_run: Path,
                                                                    tmp_path: Path) -> None:
    envs = json.loads((single_run / "environment.json").read_text())
    quiet = {"calibration": {"start_s": 0.1, "end_s": 0.1},
             "samples": [{**s, **QUIET} for s in envs[-1]["samples"]]}
    run = _with_invocation(single_run, tmp_path / "busy-resume", quiet, BUSY)
    md = (write_report(run, tmp_path / "rep") / "summary.md").read_text()
    assert "disturbed" not in md.split("## Environment")[0] and "6.2" not in md
    assert f"| date | {envs[-1]['recorded_at']} |" in md
    assert "| calibration loop | 100 ms at the start, 100 ms at the end |" in md
    assert "| invocations | 2, 1 of them ran tasks " in md
    # a quiet resume that ran nothing keeps the warning of the invocation that measured
    busy = {**quiet, "samples": [{**s, **BUSY} for s in envs[-1]["samples"]]}
    run = _with_invocation(single_run, tmp_path / "quiet-resume", busy, QUIET)
    md = (write_report(run, tmp_path / "rep2") / "summary.md").read_text()
    assert ("Note: This run was disturbed: the load average reached 6.2 with 1 job; other "
            "processes took up to 55% of the CPU.") in md


def test_a_run_of_more_jobs_than_cores_is_said_to_be_oversubscribed(single_run: Path,
                                                                     tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(single_run, run)
    envs = json.loads((run / "environment.json").read_text())
    envs[-1].update(jobs=99, cores=2, samples=[{**s, **QUIET} for s in envs[-1]["samples"]],
                    calibration={"start_s": 0.1, "end_s": 0.1})
    (run / "environment.json").write_text(json.dumps(envs))
    md = (write_report(run, tmp_path / "rep") / "summary.md").read_text()
    assert ("Note: This run was disturbed: the run was oversubscribed with 99 jobs on 2 cores, "
            "so its task times include waiting for a core. Its times are slower") in md
