"""Translation into SCIP alone, both routes in one process: Pyomo's ``scip_persistent``
``set_instance`` against the ``scip`` session's LP-file route (LP write, ``readProblem``, the
column map), each on a freshly built model, ``REPEAT`` times. ``--freeze`` first freezes the
garbage collector after the imports, as the harness's fork server does. Usage, from the
repository root: ``python docs/results/2026-11-28-scip-translation.py INSTANCE FORMULATION
[REPEAT] [--freeze]``."""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import pyomo.environ  # noqa: F401  (imported before timing, as the harness preloads it)
from pyomo.contrib.solver.solvers.scip.scip_persistent import ScipPersistent

from bench.backends import SolveOptions, get_backend
from bench.backends.scip import ScipSession
from bench.instance import read_instance
from bench.registry import get_formulation


def main(args: list[str]) -> None:
    freeze = "--freeze" in args
    path, label, *rest = [a for a in args if a != "--freeze"]
    get_backend("scip").preload()
    if freeze:
        gc.collect()
        gc.freeze()
    inst = read_instance(path)
    form = get_formulation(inst.puzzle, label)
    for rep in range(int(rest[0]) if rest else 1):
        model = form.build(inst)
        t = time.perf_counter()
        ScipPersistent().set_instance(model.model)
        old = time.perf_counter() - t
        model = form.build(inst)
        session = get_backend("scip").start(model, SolveOptions())
        assert isinstance(session, ScipSession)
        t = time.perf_counter()
        session.update()
        new = time.perf_counter() - t
        print(f"{Path(path).name} {label} rep {rep}: scip_persistent set_instance {old:.2f} s, "
              f"LP file route {new:.2f} s, ratio {old / new:.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
