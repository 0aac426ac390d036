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
preset ``stabilizeonly=1,elimreleff=10,subsumereleff=60``. ``--levers NAME=VALUE[,...]``
runs the Nurikabe propagator with two levers it does not have (:func:`levered`, for measuring
them): an articulation-search schedule (``cutlevel``, ``cutevery``, ``cutbackoff``,
``cutbudget``) and inferences' reasons kept as permanent clauses (``keep``, ``keeplen``,
``keeproot``, ``keeponly``); every schedule stays exact (the complete-model check still
rejects a split wall with a clause).

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

#: the base of the :class:`Levered` mixin: any class (it is mixed into the propagator's)
_Base: Any = object


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
    ap.add_argument("--levers", default="", metavar="NAME=VALUE[,...]",
                    help="the propagator's cut schedule and kept clauses (see levered)")
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
    if args.levers:
        model.propagator.__class__ = levered(type(model.propagator), levers_of(args.levers))
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
        **({"levers": args.levers} if args.levers else {}),
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


#: the levers of :func:`levered` and their values when not given (0: off)
LEVERS: dict[str, Any] = {"cutlevel": -1, "cutevery": 1, "cutbackoff": 0, "cutbudget": 0.0,
                          "keep": "none", "keeplen": 0, "keeproot": 0, "keeponly": 0}


def levers_of(text: str) -> dict[str, Any]:
    """``NAME=VALUE[,...]`` as :data:`LEVERS` with the given values (of each default's type)."""
    out = dict(LEVERS)
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in LEVERS:
            raise SystemExit(f"unknown lever {name!r}: one of {', '.join(LEVERS)}")
        out[name] = type(LEVERS[name])(value)
    return out


def levered(cls: type, lv: dict[str, Any]) -> type:
    """``cls`` (the Nurikabe propagator) with the levers ``lv`` (:data:`LEVERS`). Schedule: an
    articulation search the propagator would run is left out above decision level
    ``cutlevel`` (-1: no bound), at all but every ``cutevery``-th, after a search that found
    nothing for the next 1, 2, 4, ... up to ``cutbackoff`` (0: off; reset by a search that finds
    a cell), or while the searches' seconds exceed ``cutbudget`` of the propagator's (0: off;
    this one depends on the clock, so its search is not repeatable). Kept clauses: the reason
    of each literal ``propagate`` hands over (``keep=cut``: articulation inferences only;
    ``all``: every inference), at most ``keeplen`` literals long (0: any), at the root only
    (``keeproot=1``), is handed to the solver once as an external clause as well
    (``has_clause``/``add_clause``; python-sat's bridge offers no forgettable flag), and with
    ``keeponly=1`` only as that clause, not as a propagated literal."""
    return type(f"Levered{cls.__name__}", (Levered, cls), {"lv": lv})


class Levered(_Base):
    """The levers of :func:`levered` over the Nurikabe propagator (a mixin: ``lv``, the
    levers, is set by :func:`levered`)."""

    lv: dict[str, Any] = LEVERS
    eligible = kept = skip = wait = 0
    cut_s = 0.0

    def reset(self) -> None:
        super().reset()
        self.keep: list[list[int]] = []
        self.keys: set[frozenset[int]] = getattr(self, "keys", set())

    def _cut(self, found: dict[int, Any]) -> None:
        self.eligible += 1
        if ((0 <= self.lv["cutlevel"] < self.depth) or self.eligible % self.lv["cutevery"]
                or (self.lv["cutbudget"] and self.seconds > 1.0
                    and self.cut_s > self.lv["cutbudget"] * self.seconds)):
            return
        if self.wait:
            self.wait -= 1
            return
        t0, before = time.perf_counter(), len(found)
        super()._cut(found)
        self.cut_s += time.perf_counter() - t0
        if self.lv["cutbackoff"]:
            self.skip = 0 if len(found) > before else min(self.lv["cutbackoff"],
                                                          2 * self.skip or 1)
            self.wait = self.skip

    def propagate(self) -> list[int]:
        out: list[int] = super().propagate()
        if self.lv["keep"] == "none" or not out or (self.lv["keeproot"] and self.depth):
            return out
        t0, rest = time.perf_counter(), []
        for s in out:
            why = self.why[s]
            clause = ([] if self.lv["keep"] == "cut" and isinstance(why, tuple)
                      else [s, *(self._out(x) for x in self.tail(why))])
            if not clause or 0 < self.lv["keeplen"] < len(clause):
                rest.append(s)
                continue
            if frozenset(clause) not in self.keys:
                self.keys.add(frozenset(clause))
                self.keep.append(clause)
                self.kept += 1
            if not self.lv["keeponly"]:
                rest.append(s)
        self.seconds += time.perf_counter() - t0
        return rest

    def has_clause(self) -> bool:
        self.calls += 1
        return self.pending is not None or bool(self.keep)

    def add_clause(self) -> list[int]:
        if self.pending is not None:
            return list(super().add_clause())
        self.calls += 1
        return self.keep.pop()

    def tallies(self) -> dict[str, Any]:
        return {**super().tallies(), "cut_eligible": self.eligible,
                "kept_clauses": self.kept, "cut_search_s": round(self.cut_s, 2)}


if __name__ == "__main__":
    main()
