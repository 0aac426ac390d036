"""A suite's capped pairs on a plan (:func:`apply_caps`): a pair the suite's pilot showed
hopeless runs on the first few instances of a tier only, the rest recorded as not run; a capped
pair the plan has no task of is warned about unless the run's own ``--puzzle``,
``--formulation`` or ``--solver`` left it out (:func:`left_out`), so a misspelt pair is still
said."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from bench.backends import backends_for
from bench.instance import read_instance
from bench.judge import UNJUDGED, not_run
from bench.records import Result, Task
from bench.registry import Formulation, formulations
from bench.run.execute import base_result
from bench.variants import variants

log = logging.getLogger(__name__)


class Planlike(Protocol):
    """What :func:`apply_caps` takes of a plan (:class:`bench.run.plan.Plan`)."""

    tasks: list[Task]
    errors: list[Result]


class Selects(Protocol):
    """What :func:`left_out` asks of a selection (:class:`bench.run.plan.Selection`)."""

    @property
    def puzzles(self) -> Sequence[str]: ...

    def wants(self, form: Formulation) -> bool: ...

    def uses(self, puzzle: str, solver: str) -> bool: ...


P = TypeVar("P", bound=Planlike)


def pair_key(puzzle: str, t: Task) -> str:
    """A task's pair as a suite's ``capped`` list names it: ``PUZZLE:FORMULATION/SOLVER``."""
    return f"{puzzle}:{t.formulation}/{t.solver}"


def _kind(puzzle: str, label: str) -> str:
    """The model kind of a puzzle's formulation variant ("" when none has that label)."""
    return next((c.kind for c in formulations(puzzle)
                 if any(v.label == label for v in variants(c))), "")


def apply_caps(plan: P, order: Sequence[str], caps: dict[str, tuple[int, frozenset[str]]],
               left_out: Callable[[str], bool] = lambda pair: False) -> P:
    """Per tier of ``caps`` (tier -> (cap, pairs)): a listed pair runs only on the first
    ``cap`` instances of its puzzle in that tier that it has a task on, in ``order`` (the
    suite's instance order; a listed pair with no task in the tier is logged as a warning,
    unless ``left_out`` says the run's own options leave it out), and
    there with its lowest seed only; each other instance's task is recorded as not run
    (:data:`bench.records.NOT_RUN`, a timeout at its own limit with no measurement: never
    scored), once per (instance, pair) for its lowest seed and first repetition, its further
    seeds dropped."""
    if not caps:
        return plan
    rank = {p: i for i, p in enumerate(order)}
    puzzle = {p: read_instance(p).puzzle for p in {t.instance for t in plan.tasks
                                                   if t.tier in caps}}
    # per (tier, capped pair): the first `cap` instances, in the suite's order, the pair has a
    # task on (a pair with no task on an instance is not held to it)
    on: dict[tuple[str, str], set[str]] = {}
    for t in plan.tasks:
        if t.tier in caps and pair_key(puzzle[t.instance], t) in caps[t.tier][1]:
            on.setdefault((t.tier, pair_key(puzzle[t.instance], t)), set()).add(t.instance)
    allowed = {k: set(sorted(v, key=lambda p: rank.get(p, len(rank)))[:caps[k[0]][0]])
               for k, v in on.items()}
    _say_unplanned(caps, set(on), left_out)
    low: dict[tuple[str, str, str], int] = {}
    for t in plan.tasks:
        g = (t.instance, t.formulation, t.solver)
        low[g] = min(low.get(g, t.seed), t.seed)
    keep: list[Task] = []
    first: dict[tuple[str, str, str], Task] = {}
    for t in plan.tasks:
        cap_pairs = caps.get(t.tier)
        if cap_pairs is None or pair_key(puzzle[t.instance], t) not in cap_pairs[1]:
            keep.append(t)
            continue
        if t.instance in allowed[(t.tier, pair_key(puzzle[t.instance], t))]:
            if t.seed == low[(t.instance, t.formulation, t.solver)]:
                keep.append(t)  # a capped pair runs its lowest seed only
            continue
        g = (t.instance, t.formulation, t.solver)
        if g not in first or (t.seed, t.rep) < (first[g].seed, first[g].rep):
            first[g] = t
    from bench.run.outcome import stamp

    for t in first.values():
        cap = caps[t.tier][0]
        inst = read_instance(t.instance)
        r = base_result(t, inst, UNJUDGED)
        not_run(r, f"capped: hopeless in the suite's pilot, this pair runs on the first {cap} "
                   f"{inst.puzzle} instances of the {t.tier} tier only")
        r.rep, r.kind = t.rep, _kind(inst.puzzle, t.formulation)
        plan.errors.append(stamp(r, t))
    plan.tasks = keep
    return plan


def _say_unplanned(caps: dict[str, tuple[int, frozenset[str]]], planned: set[tuple[str, str]],
                   left_out: Callable[[str], bool]) -> None:
    """Warn of each capped pair with no task in its tier (``planned``: the (tier, pair) that
    have one), unless ``left_out`` says the run's own options left it out."""
    for tier, (_cap, pairs) in caps.items():
        for pair in sorted(pairs - {p for t, p in planned if t == tier}):
            if left_out(pair):
                log.debug("capped pair %s in tier %s: left out by this run's options", pair,
                          tier)
            else:
                log.warning("the suite caps %s in tier %s, but the plan has no task of it "
                            "there (a misspelt pair, or one this run does not select)", pair,
                            tier)


def left_out(pair: str, selection: Selects, narrowed: tuple[bool, bool, bool]) -> bool:
    """Whether a capped ``pair`` (``PUZZLE:FORMULATION/SOLVER``) names a real puzzle, variant
    label and a solver of its model kind that the run's own options leave out of
    ``selection``: ``narrowed`` says which
    of ``--puzzle``, ``--formulation`` and ``--solver`` were given (without them, a pair the
    suite's own selection leaves out is the suite's to answer for: not left out). A pair
    that no task could have (misspelt, a bare name of a formulation whose labels carry
    parameters, a solver of another kind) is never left out."""
    puzzle, _, rest = pair.partition(":")
    label, _, solver = rest.rpartition("/")
    form = next((v for c in formulations(puzzle) for v in variants(c) if v.label == label),
                None)
    if form is None or solver not in {b.name for b in backends_for(form.kind)}:
        return False  # no such variant label, or a solver that does not take its kind
    by_puzzle, by_formulation, by_solver = narrowed
    return ((by_puzzle and puzzle not in selection.puzzles)
            or (by_formulation and not selection.wants(form))
            or (by_solver and not selection.uses(puzzle, solver)))
