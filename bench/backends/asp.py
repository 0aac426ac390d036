"""Answer set programming with clingo, in-process through its Python API (the ``asp`` kind).

A session keeps one ``clingo.Control``: the first solve loads the formulation's ``.lp`` files,
adds the instance's facts as the ``base`` part and grounds it; every rule added to the model
afterwards (a block for counting, a lazy cut) is added as a part of its own and grounded into
the live solver, so clasp keeps what it learnt (incremental, as clingo's multi-shot solving
allows: the new rules only constrain atoms of earlier parts).

Timing and limits: grounding and search are both the ASP system's work, so ``solver_s`` is the
time in them (measured around the calls; clingo's own ``times`` accumulate over the steps).
The search runs asynchronously and is cancelled at the time limit; grounding cannot be
interrupted, so a grounding that outlives the limit is stopped by the runner's hard limit.
clingo reports a failed allocation as a ``RuntimeError`` naming ``bad_alloc``: it is raised
again as ``MemoryError``, which the task records as ``memout``.

Effort (``Outcome.stats``, per solve call): clasp's ``choices`` (kept as ``decisions``, the
word the other kinds use), ``conflicts``, and the ``rules`` and ``atoms`` this step added to the
ground program (their sum over a session's calls is the program's size, ``AspModel.ground``).

Seeds: clasp's search is deterministic unless a randomising option is set (``--rand-freq``,
``--sign-def=rnd``, ...); ``--seed`` alone does not change it (checked by
tests/backends/test_asp.py on a real search). The backend sets no randomising option, so a
task's seed is not passed and ASP is recorded as deterministic, like GLPK: repeated seeds
measure timing noise only.
"""

from __future__ import annotations

import importlib.util
import time
from typing import Any

from bench.backends.base import Backend, Outcome, Seeding, Session, Status
from bench.backends.kinds import AspAnswer, AspModel, ModelKind, Term
from bench.effort import CONFLICTS, DECISIONS


def _term(sym: Any) -> Term:
    import clingo

    if sym.type == clingo.SymbolType.Number:
        return int(sym.number)
    if sym.type == clingo.SymbolType.String:
        return str(sym.string)
    if sym.type == clingo.SymbolType.Function and not sym.arguments and sym.positive:
        return str(sym.name)
    return str(sym)


def answer_of(symbols: Any) -> AspAnswer:
    """The shown atoms of a clingo model as the kind's reader."""
    return AspAnswer((s.name, tuple(_term(a) for a in s.arguments)) for s in symbols)


def _memory(e: RuntimeError) -> bool:
    return "bad_alloc" in str(e)


class ClingoSession(Session):
    model: AspModel

    def setup(self) -> None:
        self.ctl: Any = None
        self.fed = 0  # model.added rules already grounded

    def _control(self) -> Any:
        import clingo

        args = ["--models=1"]
        if self.options.threads > 1:
            args.append(f"--parallel-mode={self.options.threads}")
        ctl = clingo.Control(args, logger=lambda _code, _msg: None)
        for path in self.model.programs:
            ctl.load(str(path))
        ctl.add("base", [], "\n".join(self.model.facts))
        return ctl

    def _ground(self) -> None:
        parts: list[tuple[str, list[Any]]] = []
        if self.ctl is None:
            self.ctl = self._control()
            self.model.ground.clear()  # the size of this control's program, from its start
            parts.append(("base", []))
        for i in range(self.fed, len(self.model.added)):
            self.ctl.add(f"added_{i}", [], self.model.added[i])
            parts.append((f"added_{i}", []))
        self.fed = len(self.model.added)
        if parts:
            self.ctl.ground(parts)

    def _stats(self) -> dict[str, float]:
        """This call's counters. clasp's ``solving`` statistics are the last step's; its
        ``problem.lp`` ones are the whole program grounded so far (they grow with each step),
        so the model's size is set to them and the call's ``rules`` and ``atoms`` are those its
        step added."""
        stats = self.ctl.statistics
        solvers, lp = stats["solving"]["solvers"], stats["problem"]["lp"]
        ground = self.model.ground
        atoms, rules = int(lp["atoms"]), int(lp["rules"])
        added = {"rules": float(rules - ground.get("rules", 0)),
                 "atoms": float(atoms - ground.get("atoms", 0))}
        ground["atoms"], ground["rules"] = atoms, rules
        return {"decisions": float(solvers["choices"]), "conflicts": float(solvers["conflicts"]),
                **added}

    def solve(self, time_limit: float) -> Outcome:
        found: list[AspAnswer] = []

        def on_model(m: Any) -> bool:
            found.append(answer_of(m.symbols(shown=True)))
            return False  # the first answer set is enough

        t0 = time.perf_counter()
        try:
            self._ground()
            left = time_limit - (time.perf_counter() - t0)
            with self.ctl.solve(on_model=on_model, async_=True) as handle:
                if not handle.wait(max(left, 0.0)):
                    handle.cancel()
                result = handle.get()
        except RuntimeError as e:
            if _memory(e):
                raise MemoryError(f"clingo: {e}") from e
            raise
        wall = time.perf_counter() - t0
        stats = self._stats()
        status: Status
        if found:
            return Outcome("sat", found[0], wall, wall, stats)
        status = "infeasible" if result.unsatisfiable else "timeout"
        return Outcome(status, None, wall, wall, stats)

    def close(self) -> None:
        self.ctl = None


class Clingo(Backend):
    name = "clingo"
    kinds: tuple[ModelKind, ...] = ("asp",)
    package = "clingo"
    modules = ("clingo",)
    incremental = True
    description = "clingo (gringo + clasp), in-process multi-shot; deterministic search"
    model_type = AspModel
    session = ClingoSession
    seeding = Seeding("none", "clasp searches deterministically (no randomising option set)")
    #: clasp's choices are kept as decisions; the ground program's rules and atoms are the
    #: model's size (``AspModel.ground``), not a kept counter
    effort = (DECISIONS, CONFLICTS)
    check_rank = 0

    def available(self) -> str | None:
        return None if importlib.util.find_spec("clingo") else "clingo is not installed"

    def version(self) -> str:
        return f"clingo {super().version()}"
