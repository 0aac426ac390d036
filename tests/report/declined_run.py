"""A hand-made run folder for the tests of declined tasks: a journal of real result records
(``bench.records.Result``) written with the run's own journal writer, so the report reads it
as it reads any run (``load_run`` and ``prepare``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench.records import Result
from bench.report.data import load_run, prepare
from bench.run.storage import Journal

LIMIT = 10.0
SOLVER = "cadical195"


def result(form: str, instance: int, outcome: str | float, tier: str = "hard") -> Result:
    """One task's record on instance ``i<instance>`` (a 10x10 Nurikabe by its name):
    ``outcome`` a time in seconds (solved, checked), "timeout", "memout" (after 1 s), "error"
    (a crash after 0.1 s: it ran, with a process) or "skipped" (the formulation declined the
    instance)."""
    name = f"i{instance:02d}"
    solved = not isinstance(outcome, str)
    seconds = float(outcome) if solved else {"timeout": LIMIT, "memout": 1.0,
                                             "error": 0.1}.get(str(outcome), 0.0)
    status = "solved" if solved else str(outcome)
    return Result(key=f"sha256:{name}|{form}|{SOLVER}", puzzle="nurikabe", instance=name,
                  instance_path=f"instances/nurikabe/hard/{name}.txt", rows=10, cols=10,
                  formulation=form, kind="sat", solver=SOLVER, solver_version="1.9.5",
                  status=status,  # type: ignore[arg-type]
                  message={"skipped": f"{form}: more than 3 clues",
                           "error": f"{form}: its build raised"}.get(status, ""),
                  build_s=0.0, solve_s=seconds, wall_s=seconds + 0.2, start="fork",
                  host="here", exact=True, checked=True if solved else None,
                  time_limit=LIMIT, tier=tier, peak_rss_mb=50.0, base_rss_mb=40.0,
                  sample_id=f"{name}-{form}")


def write(folder: Path, plan: dict[str, list[str | float]], tier: str = "hard") -> pd.DataFrame:
    """Write the run of ``plan`` (per formulation its outcome on instance 0, 1, ...) into
    ``folder`` and read it back prepared, as the report reads it."""
    folder.mkdir(parents=True, exist_ok=True)
    Journal(folder).extend([result(form, i, o, tier) for form, outcomes in plan.items()
                            for i, o in enumerate(outcomes)])
    return prepare(load_run(folder).df)
