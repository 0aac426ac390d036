"""The modelling layer's cost, build and solve apart: a native CP-SAT formulation on ``cpsat``
against the CPMpy formulation of the same constraints on ``cpmpy:ortools``, in one process
(OR-tools and cpmpy imported before timing, as a task process preloads them), ``REPEAT`` times
each, alternating. Per pair and instance it prints the median of: build (the formulation's
``build``), translate (CPMpy's model handed to OR-tools: ``CpmpySession.translate``; none for
the native model), solve (the session's ``solve``: CPMpy's own work around the solver
included) and the solver's own time (``Outcome.solver_s``, OR-tools' wall time), with the
model sizes. Usage, from the repository root: ``python docs/results/2026-11-29-cpmpy-layer.py
INSTANCE NATIVE CPMPY [REPEAT]``."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.backends import SolveOptions, get_backend
from bench.backends.cpmpy import CpmpySession
from bench.instance import read_instance
from bench.registry import get_formulation


def once(path: str, label: str, solver: str) -> dict[str, float]:
    inst = read_instance(path)
    backend = get_backend(solver)
    form = get_formulation(inst.puzzle, label, backend.kinds)
    t0 = time.perf_counter()
    model = form.build(inst)
    build = time.perf_counter() - t0
    size = model.size()
    session = backend.start(model, SolveOptions())
    translate = 0.0
    if isinstance(session, CpmpySession):
        t0 = time.perf_counter()
        session.translate()
        translate = time.perf_counter() - t0
    t0 = time.perf_counter()
    out = session.solve(60.0)
    solve = time.perf_counter() - t0
    if out.value is None:
        raise SystemExit(f"{label} on {solver}: {out.status}")
    grid = form.decode(inst, model, out.value)
    session.close()
    assert grid, "no grid"
    return {"build": build, "translate": translate, "solve": solve, "solver": out.solver_s,
            "variables": size["variables"], "constraints": size["constraints"]}


def main(path: str, native: str, cpmpy: str, repeat: str = "3") -> None:
    for solver in ("cpsat", "cpmpy:ortools"):
        get_backend(solver).preload()
    runs: dict[str, list[dict[str, float]]] = {native: [], cpmpy: []}
    for _ in range(int(repeat)):
        runs[native].append(once(path, native, "cpsat"))
        runs[cpmpy].append(once(path, cpmpy, "cpmpy:ortools"))
    print(f"{Path(path).name}")
    for label, got in runs.items():
        med = {k: statistics.median(r[k] for r in got) for k in got[0]}
        print(f"  {label:45s} vars {med['variables']:7.0f} cons {med['constraints']:7.0f} "
              f"build {med['build']:7.3f} translate {med['translate']:7.3f} "
              f"solve {med['solve']:7.3f} (solver {med['solver']:7.3f})")


if __name__ == "__main__":
    main(*sys.argv[1:])
