"""A hand-made Nurikabe run folder of three pairs, one of each origin: a SAT pair of ours, our
own ``frontier`` on the external backend and the peer ``puzzlekit`` on it, as a journal of real
result records (``bench.records.Result``) written with the run's own journal writer, so the
report reads it as it reads any run. ``legacy``: the records as written before ``origin`` was
recorded (no ``origin`` given: the field's default, as a journal line without the key
reads)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bench.records import Result
from bench.report.data import load_run, prepare
from bench.run.storage import Journal

LIMIT = 10.0
#: formulation, solver, kind, recorded origin, solver version, seconds per instance (None: a
#: timeout): frontier fastest everywhere, the SAT pair next, the peer slowest
PAIRS = [("sat-tree", "cadical195", "sat", "ours", "CaDiCaL 1.9.5", [0.5, 0.6, 0.7, 0.8]),
         ("frontier", "external", "external", "ours", "own code", [0.05, 0.06, 0.07, 0.08]),
         ("puzzlekit", "external", "external", "puzzlekit", "puzzlekit 0.3.4",
          [2.0, 3.0, None, 4.0])]
SAT, FRONTIER, PEER = (f"{f} / {s}" for f, s, *_ in PAIRS)


def results(legacy: bool = False, tier: str = "hard") -> list[Result]:
    out = []
    for form, solver, kind, origin, version, times in PAIRS:
        for i, s in enumerate(times):
            name = f"i{i:02d}"
            ok = s is not None
            out.append(Result(
                key=f"sha256:{name}|{form}|{solver}", puzzle="nurikabe", instance=name,
                instance_path=f"instances/nurikabe/two/{name}.txt", rows=8, cols=8,
                formulation=form, kind=kind, solver=solver,
                solver_version="puzzlekit 0.3.4" if legacy and kind == "external" else version,
                **({} if legacy else {"origin": origin}), status="solved" if ok else "timeout",
                build_s=0.0, solve_s=s if ok else LIMIT, wall_s=(s or LIMIT) + 0.2,
                start="fork", host="here", exact=True, checked=True if ok else None,
                time_limit=LIMIT, tier=tier, peak_rss_mb=50.0, base_rss_mb=40.0,
                sample_id=f"{name}-{form}"))
    return out


def write(folder: Path, legacy: bool = False, tier: str = "hard") -> pd.DataFrame:
    """Write the run into ``folder`` and read it back prepared, as the report reads it."""
    folder.mkdir(parents=True, exist_ok=True)
    Journal(folder).extend(results(legacy, tier))
    return prepare(load_run(folder).df)
