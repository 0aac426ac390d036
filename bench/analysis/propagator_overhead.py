"""The callback overhead of sat-propagate's IPASIR-UP propagator on given Nurikabe files: the
model built as the formulation builds it, CaDiCaL (``--solver``: python-sat's
``cadical195``, default, or ``cadical300``) run for at most ``--conflicts`` conflicts
(python-sat's conflict budget: the harness cannot stop CaDiCaL in-process; 0: no budget, the
solve runs to its answer), then the propagator's own counters beside the solver's, and the
work tallies it keeps where it has them (``tallies()``: e.g. wall relabellings, per-level
restores, articulation searches, literals handed to the solver that it never assigned before
backtracking over their level). One JSON line per file. A model found within the budget is
decoded and judged by the puzzle's rule verifier (``"valid"``). ``solve_cpu_s`` is the
process's CPU time over the solver call (steadier than its wall time on a shared machine).
``--digest`` adds a SHA-256
of everything the propagator handed the solver (each ``propagate`` list, each reason, each
clause, in order): two versions of the propagator that run the same search give the same
digest (it costs a little time in the solve). ``--per-callback`` adds, per IPASIR-UP callback
(``on_assignment``, ``propagate``, ``on_backtrack``, ...), its number of calls and the seconds
spent in it, timed around the call by a subclass (``perf_counter`` before and after; the
wrapper's own frame is inside the time, so these seconds run a little above ``python_s``,
which the propagator times from inside), and the same for the steps of ``propagate`` the
Nurikabe propagator defines (:data:`STEPS`: the wall's labelling and size, each island's
reach and closing, the articulation search), named ``propagate:STEP`` (their seconds are
part of ``propagate``'s). Under ``root=handed`` the propagator replays the root literals it
hands over through its own ``on_assignment``: those calls count here too, not in ``callbacks``.
``--configure NAME=VALUE[,...]`` sets CaDiCaL options
on the solver before its clauses (python-sat's ``Solver.configure``), e.g. the ``--sat``
preset ``stabilizeonly=1,elimreleff=10,subsumereleff=60``.

    python -m bench.analysis.propagator_overhead --conflicts 5000 \\
        instances/nurikabe/big/gen-nurikabe-50x50-s1-big2-0.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from typing import Any

from pysat.solvers import Solver

from bench.analysis.lazy_rounds import options_of
from bench.backends.kinds import SatAssignment
from bench.instance import read_instance
from bench.puzzles import get_puzzle
from bench.registry import get_formulation


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--conflicts", type=int, default=5000)
    ap.add_argument("--formulation", default="sat-propagate")
    ap.add_argument("--solver", default="cadical195", choices=("cadical195", "cadical300"))
    ap.add_argument("--digest", action="store_true",
                    help="print a digest of every literal, reason and clause handed over")
    ap.add_argument("--per-callback", action="store_true",
                    help="time each IPASIR-UP callback apart (calls and seconds)")
    ap.add_argument("--configure", default="", metavar="NAME=VALUE[,...]",
                    help="CaDiCaL options set before the clauses")
    args = ap.parse_args()
    for path in args.files:
        print(json.dumps(measure(path, args)), flush=True)


def measure(path: str, args: argparse.Namespace) -> dict[str, Any]:
    """The JSON row of one file under the options ``args`` of :func:`main`."""
    inst = read_instance(path)
    form = get_formulation("nurikabe", args.formulation, ["sat"])
    t0 = time.perf_counter()
    model = form.build(inst)
    build = time.perf_counter() - t0
    handed: list[Any] = []
    if args.digest:
        model.propagator.__class__ = recording(type(model.propagator), handed)
    per: dict[str, list[float]] = {}
    if args.per_callback:
        model.propagator.__class__ = timing(type(model.propagator), per)
    with Solver(name=args.solver) as s:
        if args.configure:
            s.configure(options_of(args.configure))
        model.propagator.connect(s)
        for clause in model.clauses:
            s.add_clause(clause)
        if args.conflicts > 0:
            s.conf_budget(args.conflicts)
        t0, c0 = time.perf_counter(), time.process_time()
        answer = s.solve_limited() if args.conflicts > 0 else s.solve()
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        stats = s.accum_stats()
        valid = None
        if answer:
            grid = form.decode(inst, model, SatAssignment.of_model(s.get_model()))
            valid = not get_puzzle("nurikabe").verify(inst, grid)
    own = model.propagator.counters()
    return {
        "file": path.rsplit("/", 1)[-1], "formulation": form.label, "solver": args.solver,
        "answer": {True: "sat", False: "unsat", None: "budget"}[answer], "valid": valid,
        "build_s": round(build, 2), "solve_wall_s": round(wall, 2),
        "solve_cpu_s": round(cpu, 2),
        "conflicts": stats.get("conflicts"), "decisions": stats.get("decisions"),
        "propagations": stats.get("propagations"),
        "callbacks": int(own["propagator_calls"]),
        "python_s": round(own["propagator_s"], 2),
        "python_share": round(own["propagator_s"] / wall, 3) if wall else None,
        "us_per_callback": round(1e6 * own["propagator_s"]
                                 / max(own["propagator_calls"], 1), 2),
        "inferences": int(own["propagator_inferences"]),
        "reasons": int(own["propagator_reasons"]),
        "clauses": int(own["propagator_clauses"]),
        "model_checks": int(own["propagator_model_checks"]),
        **(model.propagator.tallies() if hasattr(model.propagator, "tallies") else {}),
        **({"digest": hashlib.sha256(repr(handed).encode()).hexdigest()[:16]}
           if args.digest else {}),
        **({"configure": args.configure} if args.configure else {}),
        **({"per_callback": {k: {"calls": int(n), "s": round(t, 3)}
                             for k, (n, t) in sorted(per.items())}}
           if args.per_callback else {}),
    }


def recording(cls: type, handed: list[Any]) -> type:
    """``cls`` with every propagate list, reason and clause it hands over appended to
    ``handed``."""

    class Recording(cls):
        def propagate(self) -> list[int]:
            out = super().propagate()
            handed.append(("p", out))
            return out

        def provide_reason(self, lit: int) -> list[int]:
            out = super().provide_reason(lit)
            handed.append(("r", out))
            return out

        def add_clause(self) -> list[int]:
            out = super().add_clause()
            handed.append(("c", out))
            return out

    return Recording


#: the IPASIR-UP callbacks python-sat's engine calls on a connected propagator
CALLBACKS = ("on_assignment", "on_new_level", "on_backtrack", "decide", "propagate",
             "provide_reason", "has_clause", "add_clause", "check_model")


#: the steps of the Nurikabe propagator's ``propagate`` (formulations/nurikabe/_wall.py,
#: _islandreach.py, _cutstep.py), timed as ``propagate:STEP``
STEPS = ("_wall", "_size", "_reach", "_close", "_step", "_cut")


def timing(cls: type, per: dict[str, list[float]]) -> type:
    """``cls`` with every callback of :data:`CALLBACKS` and every step of :data:`STEPS` it
    defines counted and timed into ``per[name] = [calls, seconds]`` (``time.perf_counter``
    around the call; a step under the name ``propagate:STEP``)."""

    def timed(name: str, label: str) -> Any:
        inner = getattr(cls, name)
        slot = per.setdefault(label, [0, 0.0])
        clock = time.perf_counter

        def call(self: Any, *args: Any) -> Any:
            t0 = clock()
            try:
                return inner(self, *args)
            finally:
                slot[0] += 1
                slot[1] += clock() - t0

        return call

    labels = {**{n: n for n in CALLBACKS}, **{n: f"propagate:{n}" for n in STEPS}}
    return type(f"Timed{cls.__name__}", (cls,),
                {n: timed(n, label) for n, label in labels.items() if hasattr(cls, n)})


if __name__ == "__main__":
    main()
