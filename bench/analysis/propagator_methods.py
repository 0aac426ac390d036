"""Where sat-propagate's propagator spends its Python time, per method: the model built as the
formulation builds it, each named method of its propagator class wrapped with a
``perf_counter`` timer, CaDiCaL (python-sat's ``cadical195``) run for at most ``--conflicts``
conflicts (0: to the answer), then one JSON line: the solver's answer, the CPU time of the
solve, conflicts, decisions, the propagator's own callback count and Python seconds, its work
tallies, and per method its calls, seconds and microseconds a call. The wrappers add their
own cost to every call: compare methods with each other, not with an unwrapped solve.

    python -m bench.analysis.propagator_methods --conflicts 0 \\
        instances/nurikabe/big/gen-nurikabe-40x57-s1-big2-0.txt _cut _wall _reach _close
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pysat.solvers import Solver

from bench.instance import read_instance
from bench.registry import get_formulation


def timed(cls: type, names: list[str], seconds: dict[str, float],
          calls: dict[str, int]) -> type:
    """A subclass of ``cls`` whose methods ``names`` add their time and calls to the tallies."""

    def wrap(name: str) -> Callable[..., Any]:
        inner = getattr(cls, name)

        @functools.wraps(inner)
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return inner(self, *args, **kwargs)
            finally:
                seconds[name] += time.perf_counter() - t0
                calls[name] += 1
        return method

    return type(cls.__name__, (cls,), {n: wrap(n) for n in names})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("methods", nargs="+", help="propagator methods to time, e.g. _cut")
    ap.add_argument("--conflicts", type=int, default=5000)
    ap.add_argument("--formulation", default="sat-propagate")
    args = ap.parse_args()
    model = get_formulation("nurikabe", args.formulation, ["sat"]).build(read_instance(args.file))
    seconds: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    prop = model.propagator
    missing = [n for n in args.methods if not callable(getattr(prop, n, None))]
    if missing:
        raise SystemExit(f"{type(prop).__name__} has no method {', '.join(missing)}")
    prop.__class__ = timed(type(prop), args.methods, seconds, calls)
    with Solver(name="cadical195") as s:
        prop.connect(s)
        for clause in model.clauses:
            s.add_clause(clause)
        if args.conflicts > 0:
            s.conf_budget(args.conflicts)
        c0 = time.process_time()
        answer = s.solve_limited() if args.conflicts > 0 else s.solve()
        cpu = time.process_time() - c0
        stats = s.accum_stats()
    print(json.dumps({
        "file": args.file, "answer": answer, "solve_cpu_s": round(cpu, 3),
        "conflicts": stats.get("conflicts"), "decisions": stats.get("decisions"),
        "callbacks": prop.calls, "propagator_s": round(prop.seconds, 3), **prop.tallies(),
        "methods": {n: {"calls": calls[n], "s": round(seconds[n], 3),
                        "us_per_call": round(1e6 * seconds[n] / calls[n], 1) if calls[n] else None}
                    for n in args.methods}}))


if __name__ == "__main__":
    main()
