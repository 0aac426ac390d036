"""The modelling layer's cost, build and solve apart: a native CP-SAT formulation on ``cpsat``
against the CPMpy formulation of the same constraints on ``cpmpy:ortools``, in one process
(OR-tools and cpmpy imported before timing, as a task process preloads them), ``REPEAT`` times
each, alternating. Per pair and instance it prints the median of: build (the formulation's
``build``), translate (CPMpy's model handed to OR-tools: ``CpmpySession.translate``; none for
the native model), solve (the session's ``solve``: CPMpy's own work around the solver
included) and the solver's own time (``Outcome.solver_s``, OR-tools' wall time), with the
model sizes. Every decoded grid is judged by the puzzle's rule verifier; a wrong one stops the
measurement. Usage: ``python -m bench.analysis.cpmpy_layer INSTANCE NATIVE CPMPY [REPEAT]``;
exit 2 with one line on bad input."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from bench.backends import SolveOptions, get_backend
from bench.backends.cpmpy import CpmpySession
from bench.instance import InstanceError, read_instance
from bench.puzzles import get_puzzle
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
    problems = get_puzzle(inst.puzzle).verify(inst, grid)
    if problems:
        raise SystemExit(f"{label} on {solver}: wrong answer on {path}: {problems[0]}")
    return {"build": build, "translate": translate, "solve": solve, "solver": out.solver_s,
            "variables": size["variables"], "constraints": size["constraints"]}


def main(path: str, native: str, cpmpy: str, repeat: str = "3") -> None:
    """Print the medians of ``repeat`` alternating measurements of each formulation."""
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
    if not 4 <= len(sys.argv) <= 5:
        sys.exit("usage: python -m bench.analysis.cpmpy_layer INSTANCE NATIVE CPMPY [REPEAT]")
    try:
        main(*sys.argv[1:])
    except (InstanceError, OSError, KeyError, ValueError) as e:
        print(f"cpmpy_layer: {e}", file=sys.stderr)
        sys.exit(2)
