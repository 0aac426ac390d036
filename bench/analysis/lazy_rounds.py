"""Where a lazy SAT formulation's time goes: its first solve (the eager part alone, before any
cut) against the cut rounds after it. For each file and seed the model is built and solved by
the harness's own loop (:func:`bench.solve.solve`: the backend's session, incremental where the
solver is, a seed s != 0 scrambling the formula and every later cut by
:class:`bench.backends.sat.Scramble`, the formulation's ``separate`` between the calls), and the
loop's counters are read at the start of each round (its ``on_round`` hook). One JSON line per
file x seed x arm: the build's seconds; the first solve's wall seconds, CPU seconds and
conflicts; the same summed over the later rounds; the rounds (the harness's ``iterations``);
the totals; and whether the final grid passes the puzzle's rule checker (``valid``).

CPU seconds are the process's (``time.process_time``) from the end of the build: the solver,
the separation and the harness's own Python (steadier than wall time on a shared machine). The
first round's figures include its separation, which found the first cuts.

Arms, run one after another for each file and seed (interleaved, their order rotated from one
file x seed to the next, so that a drift of the machine's load touches all of them alike):
every ``--formulation`` label as it is, then the first label under each ``--configure`` set
(``NAME=VALUE[,NAME=VALUE...]``: CaDiCaL options, set on the freshly built solver before its
clauses through the model's hook for an IPASIR-UP propagator; python-sat's ``cadical195`` and
``cadical300`` only).

    python -m bench.analysis.lazy_rounds --seeds 0,1,2 \\
        instances/nurikabe/big/gen-nurikabe-50x50-s1-big2-0.txt
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from collections.abc import Sequence
from typing import Any

from bench.backends import SolveOptions, get_backend
from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.registry import get_formulation
from bench.solve import SolveStats, solve


class Configure:
    """A model's propagator hook (``SatModel.propagator``) that sets solver options on the
    freshly built solver and then hands over to the model's own propagator, if any."""

    def __init__(self, options: dict[str, int], inner: Any = None) -> None:
        self.options = options
        self.inner = inner

    def connect(self, solver: Any, sign: Sequence[int] | None = None) -> None:
        solver.configure(self.options)
        if self.inner is not None:
            self.inner.connect(solver, sign)

    def counters(self) -> dict[str, float]:
        return self.inner.counters() if self.inner is not None else {}


def options_of(text: str) -> dict[str, int]:
    """``"a=1,b=2"`` as ``{"a": 1, "b": 2}`` ("" is no option)."""
    pairs = (p.split("=", 1) for p in text.split(",") if p)
    return {k.strip(): int(v) for k, v in pairs}


def hook(form: Any, backend: Any, options: dict[str, int], mark: Any) -> None:
    """Make ``form`` (this instance of it) hand its models the solver ``options`` and
    ``backend`` (a copy) call ``mark`` once its session has started."""
    if options:
        build = form.build

        def build_configured(inst: Any) -> Any:
            model = build(inst)
            model.propagator = Configure(options, model.propagator)
            return model

        form.build = build_configured
    start = backend.start

    def start_marked(model: Any, options: SolveOptions) -> Any:
        session = start(model, options)  # the scramble is made here, untimed by the harness
        mark(SolveStats())
        return session

    backend.start = start_marked


def measure(
    path: str, label: str, solver: str, seed: int, configure: str = "", time_limit: float = 600.0
) -> dict[str, Any]:
    """One file x seed x arm: the harness's solve with the counters of each round (see the
    module docstring)."""
    inst = read_instance(path)
    backend = copy.copy(get_backend(solver))
    form = get_formulation(inst.puzzle, label, backend.kinds)
    options = options_of(configure)
    #: (solve_s, cpu, conflicts) when the session has started, at each later round, at the end
    marks: list[tuple[float, float, float]] = []

    def mark(stats: SolveStats, *_: Any) -> None:
        marks.append((stats.solve_s, time.process_time(), stats.effort.get("conflicts", 0.0)))

    hook(form, backend, options, mark)
    done = solve(
        inst,
        form,
        backend,
        time.perf_counter() + time_limit,
        options=SolveOptions(seed=seed),
        on_round=mark,
    )
    mark(done.stats)
    (s0, c0, _), (s1, c1, k1), (s2, c2, k2) = marks[0], marks[1], marks[-1]
    valid = None
    if done.grid is not None:
        valid = not get_puzzle(inst.puzzle).verify(inst, done.grid)
    return {
        "file": path.rsplit("/", 1)[-1],
        "formulation": form.label,
        "solver": solver,
        "configure": configure,
        "seed": seed,
        "status": done.status,
        "valid": valid,
        "build_s": round(done.stats.build_s, 2),
        "first_s": round(s1 - s0, 2),
        "first_cpu_s": round(c1 - c0, 2),
        "first_conflicts": k1,
        "rest_s": round(s2 - s1, 2),
        "rest_cpu_s": round(c2 - c1, 2),
        "rest_conflicts": k2 - k1,
        "rounds": done.stats.iterations,
        "total_s": round(s2 - s0, 2),
        "total_cpu_s": round(c2 - c0, 2),
        "conflicts": k2,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument(
        "--formulation",
        action="append",
        help="a formulation label (repeat for several arms); default: sat-hybrid",
    )
    ap.add_argument(
        "--configure",
        action="append",
        default=[],
        help="CaDiCaL options NAME=VALUE[,...]: the first label under them, "
        "a further arm (repeatable)",
    )
    ap.add_argument("--solver", default="cadical195")
    ap.add_argument("--seeds", default="0", help="comma-separated seeds (0: the model as built)")
    ap.add_argument("--time-limit", type=float, default=600.0)
    args = ap.parse_args()
    labels = args.formulation or ["sat-hybrid"]
    arms = [(label, "") for label in labels] + [(labels[0], c) for c in args.configure]
    seeds = [int(s) for s in args.seeds.split(",")]
    turn = 0
    for path in args.files:
        for seed in seeds:
            for label, configure in arms[turn:] + arms[:turn]:
                row = measure(path, label, args.solver, seed, configure, args.time_limit)
                print(json.dumps(row), flush=True)
            turn = (turn + 1) % len(arms)


if __name__ == "__main__":
    main()
