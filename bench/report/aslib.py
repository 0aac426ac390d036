"""A run's performance matrix as ASlib scenarios (the Algorithm Selection Library's format,
aslib.net / github.com/coseal/aslib-spec), so that selection research can use the data.

One scenario per puzzle and tier (ASlib has one cutoff per scenario), in a folder
``<puzzle>-<tier>`` holding:

- ``description.txt``: the YAML description (scenario id, runtime as the one performance
  measure, minimised; the cutoff: the largest time limit of the tier's tasks, and the memory
  limit; the algorithms, deterministic when run under one seed; the features and their one
  feature step, ``grid``);
- ``algorithm_runs.arff``: one line per task sample (``instance_id``, ``repetition``,
  ``algorithm`` = "formulation / solver", ``runtime``, ``runstatus``). ``runtime`` is build +
  solve seconds; a ``timeout`` has the task's time limit, and so has any other unanswered
  task without both parts of its time (:func:`runtime`); a task that was not run (a suite's
  ladder rule) has runstatus ``other`` and runtime ``?`` (missing, not a failure), and so has
  an *untimed* task, a correct answer recorded without its build or solve time
  (:mod:`bench.report.untimed`: its time is unknown, never a partial time or 0 s); a formulation
  that declined the instance is ``not_applicable``; an error is ``crash``; a wrong answer (or an
  infeasible verdict where an exact formulation solved the instance) is ``other`` with its time;
- ``feature_values.arff`` and ``feature_runstatus.arff``: the cheap features of
  :mod:`bench.select.features`, read from each instance file (``?`` and ``crash`` when the file
  cannot be read any more; a relative path is looked up from the working folder, then under
  the project root).

The ARFF files are written here (no ARFF library needed at run time); strings are quoted.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from bench.records import NOT_RUN
from bench.report import identities
from bench.report.data import found_paths, load_run, prepare
from bench.select import features
from bench.suites import locate

RUNSTATUS = ("ok", "timeout", "memout", "not_applicable", "crash", "other")
FEATURE_STATUS = ("ok", "timeout", "memout", "presolved", "crash", "other")
STEP = "grid"


@dataclass(frozen=True)
class Scenario:
    """One written scenario: its folder, instances, algorithms and run lines."""

    folder: Path
    instances: int
    algorithms: int
    runs: int


def _q(s: str) -> str:
    """An ARFF string value, quoted (backslash and quote escaped)."""
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _num(v: float) -> str:
    return "?" if v is None or not math.isfinite(v) else repr(float(v))


def _untimed(row: pd.Series) -> bool:
    """Whether a prepared task row is untimed (:mod:`bench.report.untimed`)."""
    v = row.get("untimed", False)
    return bool(v) if v is not None and v == v else False


def runstatus(row: pd.Series) -> str:
    """The ASlib run status of a prepared task row (see the module)."""
    st = str(row["status"])
    if st == "timeout" and str(row.get("message") or "").startswith(NOT_RUN):
        return "other"
    if _untimed(row):
        return "other"
    if bool(row["ok"]):
        return "ok"
    return {"timeout": "timeout", "memout": "memout", "skipped": "not_applicable",
            "error": "crash"}.get(st, "other")


def runtime(row: pd.Series, status: str) -> float:
    """Build + solve seconds of a task row; its time limit for a timeout; NaN (``?``) for a
    task that was not run and for an untimed one (a part of its time missing).

    ASlib's runtime is known whatever the run status (the time until the run ended; a
    timeout at the cutoff, as the format's example has it). An unanswered row (memout, crash,
    other) has its measured total where both parts were measured, else its time limit, as a
    timeout has: never the one part measured, which is no time of the run (a memout during
    the solve with only its build time would read as a failure after the build)."""
    if status == "other" and (str(row.get("message") or "").startswith(NOT_RUN)
                              or _untimed(row)):
        return math.nan
    if status == "timeout":
        return float(row["time_limit"])
    parts = [float(v) for v in (row["build_s"], row["solve_s"]) if v is not None and pd.notna(v)]
    own = sum(parts)
    whole = len(parts) == 2 or status == "ok"
    return own if whole and (own > 0 or status == "ok") else float(row["time_limit"])


def scenario_name(puzzle: str, tier: str) -> str:
    """The folder of a puzzle's tier: safe file-name characters only."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{puzzle}-{tier or 'untiered'}")


def _runs_arff(name: str, t: pd.DataFrame) -> tuple[str, int]:
    t = t.sort_values([c for c in ("instance", "pair", "seed", "rep", "sample_id") if c in t])
    lines = [f"% {name}: one line per task sample of the run; runtime = build + solve seconds",
             "% runstatus other with runtime ? = not run or untimed (missing data, not a failure)",
             f"@RELATION ALGORITHM_RUNS_{name}", "",
             "@ATTRIBUTE instance_id STRING", "@ATTRIBUTE repetition NUMERIC",
             "@ATTRIBUTE algorithm STRING", "@ATTRIBUTE runtime NUMERIC",
             "@ATTRIBUTE runstatus {" + ", ".join(RUNSTATUS) + "}", "", "@DATA"]
    rep: dict[tuple[str, str], int] = {}
    for _, row in t.iterrows():
        k = (str(row["instance"]), str(row["pair"]))
        rep[k] = rep.get(k, 0) + 1
        st = runstatus(row)
        lines.append(f"{_q(k[0])},{rep[k]},{_q(k[1])},{_num(runtime(row, st))},{st}")
    return "\n".join(lines) + "\n", len(rep)


def _feature_arffs(name: str, paths: dict[str, str]) -> tuple[str, str]:
    vals = [f"@RELATION FEATURE_VALUES_{name}", "", "@ATTRIBUTE instance_id STRING",
            "@ATTRIBUTE repetition NUMERIC",
            *[f"@ATTRIBUTE {n} NUMERIC" for n in features.NAMES], "", "@DATA"]
    stat = [f"@RELATION FEATURE_RUNSTATUS_{name}", "", "@ATTRIBUTE instance_id STRING",
            "@ATTRIBUTE repetition NUMERIC",
            f"@ATTRIBUTE {STEP} {{" + ", ".join(FEATURE_STATUS) + "}", "", "@DATA"]
    from bench.instance import InstanceError

    for inst, path in sorted(paths.items()):
        try:
            f = features.of_file(locate(path))
            cells, status = [_num(f[n]) for n in features.NAMES], "ok"
        except InstanceError:
            cells, status = ["?"] * len(features.NAMES), "crash"
        vals.append(",".join([_q(inst), "1", *cells]))
        stat.append(f"{_q(inst)},1,{status}")
    return "\n".join(vals) + "\n", "\n".join(stat) + "\n"


def _yaml_list(items: list[str]) -> list[str]:
    return [f"    - {json.dumps(i)}" for i in items]


def _description(name: str, t: pd.DataFrame) -> str:
    cutoff = float(t["time_limit"].astype(float).max())
    mem = float(pd.to_numeric(t["memory_limit_mb"], errors="coerce").max()) \
        if "memory_limit_mb" in t else math.nan
    seeds = t.groupby("pair")["seed"].nunique() if "seed" in t else pd.Series(dtype=int)
    pairs = sorted(t["pair"].astype(str).unique())
    stochastic = [p for p in pairs if seeds.get(p, 1) > 1]
    deterministic = [p for p in pairs if p not in stochastic]
    lines = [f"scenario_id: {json.dumps(name)}", "performance_measures:", "    - runtime",
             "maximize:", "    - false", "performance_type:", "    - runtime",
             f"algorithm_cutoff_time: {cutoff:g}",
             f"algorithm_cutoff_memory: {mem:g}" if math.isfinite(mem)
             else 'algorithm_cutoff_memory: "?"',
             'features_cutoff_time: "?"', 'features_cutoff_memory: "?"',
             "algorithms_deterministic:", *_yaml_list(deterministic),
             "algorithms_stochastic:" + ("" if stochastic else " []"),
             *_yaml_list(stochastic),
             "features_deterministic:", *_yaml_list(list(features.NAMES)),
             "features_stochastic: []", "number_of_feature_steps: 1", "feature_steps:",
             f"    {STEP}:", "        provides:",
             *[f"            - {n}" for n in features.NAMES],
             "default_steps:", f"    - {STEP}"]
    return "\n".join(lines) + "\n"


def scenarios(t: pd.DataFrame, out: Path, run: str = "") -> list[Scenario]:
    """Write one scenario per puzzle and tier of prepared (identity-split) task rows into
    ``out``; the scenarios written."""
    written = []
    for (puzzle, tier), g in t.groupby(["puzzle", "tier"], sort=True):
        name = scenario_name(str(puzzle), str(tier))
        folder = out / name
        folder.mkdir(parents=True, exist_ok=True)
        sid = f"{run}-{name}" if run else name
        runs, _ = _runs_arff(sid, g)
        (folder / "algorithm_runs.arff").write_text(runs, encoding="utf-8")
        paths = dict(zip(g["instance"].astype(str), found_paths(g), strict=True))
        vals, stat = _feature_arffs(sid, paths)
        (folder / "feature_values.arff").write_text(vals, encoding="utf-8")
        (folder / "feature_runstatus.arff").write_text(stat, encoding="utf-8")
        (folder / "description.txt").write_text(_description(sid, g), encoding="utf-8")
        written.append(Scenario(folder, len(paths), g["pair"].nunique(), len(g)))
    return written


def export(run_dir: str | Path, out: str | Path) -> list[Scenario]:
    """Export a run folder's results as ASlib scenarios under ``out``; raise
    :class:`bench.report.data.ReportError` when the folder has no results."""
    run = load_run(run_dir)
    t, _ = identities.apart(prepare(run.df, run.folder))
    return scenarios(t, Path(out), run.folder.resolve().name) if len(t) else []
