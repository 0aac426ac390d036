"""``python -m tests.backends.oom_solve INSTANCE FORMULATION SOLVER MARGIN_MB``: build the
model, then hold this process's data segment (RLIMIT_DATA, inherited by a solver child) to
what it uses plus MARGIN_MB, and solve; prints ``memout: <message>`` for a MemoryError, else
the exception or the status. Run in its own process: the limit stays with it."""

from __future__ import annotations

import resource
import sys
import time

from bench.backends import get_backend
from bench.instance import read_instance
from bench.registry import get_formulation
from bench.solve import SolveStats, solve


def vm_data() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    return 0


def main(path: str, form_name: str, solver: str, margin_mb: str) -> None:
    inst = read_instance(path)
    backend = get_backend(solver)
    backend.preload()
    form = get_formulation(inst.puzzle, form_name, backend.kinds)

    def built(stats: SolveStats) -> None:
        limit = vm_data() + int(margin_mb) * 2**20
        resource.setrlimit(resource.RLIMIT_DATA, (limit, resource.RLIM_INFINITY))

    try:
        print("status", solve(inst, form, backend, time.perf_counter() + 60,
                              on_built=built).status)
    except MemoryError as e:
        print(f"memout: {e}")
    except Exception as e:
        print(f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    main(*sys.argv[1:])
