"""Why a name of a run's selection names nothing: a ``--formulation``/``--solver``/``--puzzle``
entry of the command line, or a ``formulations``/``solvers``/``capped`` entry of a suite. Each
answer is one line naming the entry, what is unknown in it (the formulation, a parameter, a
value, the puzzle, the solver) and, briefly, the known names it could have meant (the
formulations of its puzzle, the parameter's values), so a misspelt name is refused before
anything runs instead of silently selecting nothing (:func:`bench.run.plan.make_plan`).

A formulation entry is ``[PUZZLE:]NAME[key=value,...]`` (``NAME[*]``: every variant); its
name may be an alias. A solver entry is ``SOLVER`` or ``PUZZLE:SOLVER``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from bench.labels import EVERY, close_matches, parse_label

if TYPE_CHECKING:
    from bench.models import ModelKind
    from bench.registry import Formulation
    from bench.suites import Suite

#: the known names an error line lists before it says how many more there are
BRIEF = 12


def split_puzzle(want: str) -> tuple[str, str]:
    """``"nurikabe:mip-flow"`` -> ``("nurikabe", "mip-flow")``: a selection entry may name the
    puzzle it is for (formulation names repeat across puzzles); without one, ``("", want)``."""
    head, sep, rest = want.partition(":")
    return (head, rest) if sep and "[" not in head else ("", want)


def brief(names: Sequence[str]) -> str:
    """``names`` joined, the first :data:`BRIEF` of them and how many more (``puzzlebench
    list`` lists them all)."""
    if len(names) <= BRIEF:
        return ", ".join(names) or "none"
    return f"{', '.join(names[:BRIEF])}, ... ({len(names) - BRIEF} more: `puzzlebench list`)"


def _named(cls: type[Formulation], name: str) -> bool:
    return name == cls.name or name in cls.aliases


def formulation_problem(want: str, puzzles: Iterable[str]) -> str:
    """Why the formulation entry ``want`` names no variant of a formulation of its puzzle (the
    one it names, else any of ``puzzles``): a malformed label, an unknown puzzle, a formulation
    whose built-in module failed to import (the module and the exception), an unknown
    formulation name, parameter or value; "" when it names one."""
    from bench.puzzles import puzzle_names
    from bench.registry import formulations, skip_reason

    puzzle, label = split_puzzle(want)
    try:
        name, params = parse_label(label)
    except ValueError as e:
        return str(e)
    known = puzzle_names()
    if puzzle and puzzle not in known:
        return f"no puzzle {puzzle!r}{close_matches(puzzle, known)} (known: {', '.join(known)})"
    scope = [puzzle] if puzzle else sorted(set(puzzles))
    classes = [c for p in scope for c in formulations(p) if _named(c, name)]
    if not classes:
        if why := next(filter(None, (skip_reason(p, name) for p in scope)), ""):
            return why  # its module failed to import: that, not the names it is not
        names = sorted({c.name for p in scope for c in formulations(p)})
        aliases = {a for p in scope for c in formulations(p) for a in c.aliases}
        elsewhere = sorted({c.puzzle for c in formulations() if _named(c, name)} - set(scope))
        where = f" (it is a formulation of {', '.join(elsewhere)})" if elsewhere else ""
        return (f"no formulation {name!r} for {', '.join(scope) or 'these instances'}"
                f"{close_matches(name, [*names, *aliases])}{where}; known: {brief(names)}")
    problems = [parameter_problem(c, params) for c in classes]
    return "" if "" in problems else problems[0]


def parameter_problem(cls: type[Formulation], params: dict[str, str]) -> str:
    """Why ``params`` (a label's ``key=value`` pairs, as text) name no variant of ``cls``: a
    parameter it does not have or a value the parameter does not take; "" when they name one
    (or are ``[*]``)."""
    if params == {EVERY: EVERY}:
        return ""
    for key, value in params.items():
        if key not in cls.parameters:
            return (f"{cls.name} has no parameter {key!r}{close_matches(key, cls.parameters)} "
                    f"(its parameters: {', '.join(cls.parameters) or 'none'})")
        choices = [str(c) for c in cls.parameters[key]]
        if value not in choices:
            return (f"{cls.name} has no {key}={value!r}{close_matches(value, choices)} "
                    f"({key}: {', '.join(choices)})")
    return ""


def solver_of(entry: str) -> str:
    """The solver a selection entry ``SOLVER`` or ``PUZZLE:SOLVER`` names: what follows a
    puzzle's name, else the whole entry (CPMpy's solvers hold a colon themselves:
    ``cpmpy:ortools``, ``nurikabe:cpmpy:ortools``)."""
    from bench.puzzles import puzzle_names

    head, _, rest = entry.partition(":")
    return rest if head in puzzle_names() and rest else entry


def solver_problem(name: str) -> str:
    """Why the solver entry ``name`` (``SOLVER`` or ``PUZZLE:SOLVER``) names no solver ("" when
    it names one)."""
    from bench.backends import all_backends, get_backend

    solver = solver_of(name)
    try:
        get_backend(solver)
    except KeyError as e:
        if "(known: " not in str(e.args[0]):  # a solver whose entry point was left out
            return str(e.args[0])
        names = [b.name for b in all_backends()]
        return (f"unknown solver {solver!r}{close_matches(solver, names)} "
                f"(known: {brief(names)})")
    return ""


def unknown_names(puzzles: Sequence[str], solvers: Sequence[str],
                  present: Collection[str] = (), suite: Suite | None = None) -> str:
    """Why a ``--puzzle`` or ``--solver`` names nothing ("" when each names something): a
    misspelt name would otherwise drop its tasks silently. A solver may be named for one
    puzzle (``PUZZLE:SOLVER``). Given the puzzles ``present`` among the instances read (the
    ``suite``'s, when it is all of them), a selection of puzzles none of which is there is
    refused too, naming the puzzles that are."""
    from bench.puzzles import puzzle_names

    known = puzzle_names()
    for name in puzzles:
        if name not in known:
            return f"--puzzle {name!r}: no such puzzle (known: {', '.join(known)})"
    if puzzles and present and not set(puzzles) & set(present):
        there = f"puzzle{'s' if len(present) > 1 else ''}: {', '.join(sorted(present))}"
        asked = " ".join(f"--puzzle {name!r}" for name in dict.fromkeys(puzzles))
        wanted = " or ".join(dict.fromkeys(puzzles))
        if suite:
            return f"{asked}: suite {suite.name} has no {wanted} instance (its {there})"
        return f"{asked}: no {wanted} instance among these (their {there})"
    for name in solvers:
        if why := solver_problem(name):
            return f"--solver {name!r}: {why}"
    return ""


def close_formulation(want: str) -> str:
    """What to say of a ``--formulation`` entry that selects nothing here: close matches among
    the registered names for an unknown name; for a known one (its parameters judged already,
    :func:`formulation_problem`), the puzzles it is a formulation of (``sat-cover`` is
    Shikaku's), never the entry itself ("" when nothing is close)."""
    from bench.registry import formulations

    name = parse_label(split_puzzle(want)[1])[0]
    known = {c.name for c in formulations()} | {a for c in formulations() for a in c.aliases}
    if name not in known:
        return close_matches(name, known)
    where = sorted({c.puzzle for c in formulations() if _named(c, name)})
    return f" (it is a formulation of {', '.join(where)})"


def suite_problem(suite: Suite, near: Callable[[], Collection[str]]) -> str:
    """Why the suite names a formulation, solver or capped pair that does not exist (one line
    naming the suites file, the suite, the entry and what is unknown in it; "" when every
    entry names something). An entry without a puzzle may name a formulation of any puzzle;
    the known names said are those of ``near()`` (the puzzles of the suite's instances),
    called only when an entry is unknown."""
    from bench.puzzles import puzzle_names

    where = f"{suite.source}: suite {suite.name}" if suite.source else f"suite {suite.name}"
    every = puzzle_names()
    for want in suite.formulations:
        said = formulation_problem(want, every)
        if said.startswith("no formulation "):  # unknown everywhere: its instances' names
            said = formulation_problem(want, near() or every) or said
        if said:
            return f"{where}: formulations entry {want!r}: {said}"
    for name in suite.solvers:
        if why := solver_problem(name):
            return f"{where}: solvers entry {name!r}: {why}"
    for tier in suite.tiers:
        for pair in tier.capped:
            puzzle, _, rest = pair.partition(":")
            form, _, solver = rest.rpartition("/")
            why = formulation_problem(f"{puzzle}:{form}", every) or solver_problem(solver)
            if why:
                return f"{where}, tier {tier.name}: capped pair {pair!r}: {why}"
    return ""


def unpaired(forms: dict[tuple[str, str], ModelKind], solvers: Sequence[str],
             unavailable: Mapping[str, str] | None = None) -> str:
    """Why a selection gives no task when its formulations (``forms``: (puzzle, name) -> model
    kind) have none of their solvers among the selected ``solvers`` (entries ``SOLVER`` or
    ``PUZZLE:SOLVER``; none: every solver): one line naming the available solvers each kind of
    them runs on, and the model kinds each selected solver takes with those formulations of
    the same puzzles; a selected solver that cannot run here (``unavailable``: name ->
    reason) is named with its reason instead."""
    ran = runs_on(forms)
    puzzles = list(dict.fromkeys(puzzle for puzzle, _ in forms))
    for solver in dict.fromkeys(solvers):
        if why := (unavailable or {}).get(solver_of(solver)):
            ran.append(f"{solver} is unavailable here ({why})")
            continue
        ran.append(takes(solver, puzzles))
    return f"no task matches the selection: {'; '.join(ran)}"


def runs_on(forms: dict[tuple[str, str], ModelKind]) -> list[str]:
    """Per model kind of ``forms`` ((puzzle, name) -> kind): "NAME runs on SOLVERS", the
    available solvers of that kind."""
    from bench.backends import backends_for

    names: dict[ModelKind, list[str]] = {}
    for (_, name), kind in forms.items():
        names.setdefault(kind, []).append(name)
    return [f"{', '.join(dict.fromkeys(n))} {'runs' if len(set(n)) == 1 else 'run'} on "
            f"{brief([b.name for b in backends_for(kind) if b.available() is None])}"
            for kind, n in names.items()]


def takes(solver: str, puzzles: Iterable[str]) -> str:
    """"SOLVER takes KINDS formulations (NAMES)": the model kinds the solver entry takes and
    the formulations of those kinds of ``puzzles``."""
    from bench.backends import get_backend
    from bench.registry import formulations

    kinds = get_backend(solver_of(solver)).kinds
    names = dict.fromkeys(c.name for p in puzzles for c in formulations(p) if c.kind in kinds)
    return f"{solver} takes {'/'.join(kinds)} formulations ({brief(list(names))})"


def idle(forms: Mapping[tuple[str, str], dict[tuple[str, str], ModelKind]],
         solvers: Iterable[str], puzzles: Collection[str]) -> list[str]:
    """One warning line per named entry of a plan that still has tasks, but none of that
    entry: a formulation entry none of whose variants has a selected solver of its kind
    (``forms``: (option, entry) -> its formulations, (puzzle, name) -> kind), saying what it
    runs on;
    a solver entry (``solvers``) that takes none of the selected formulations, saying which
    formulations of the instances' ``puzzles`` it takes, or that its puzzle has no instance
    here. The words are those of :func:`unpaired`, which says it when nothing runs at all."""
    lines = [f"{option} {want!r} gets no task: {'; '.join(runs_on(f))}; the run goes on "
             "without it" for (option, want), f in forms.items()]
    for solver in dict.fromkeys(solvers):
        puzzle = solver[:-len(solver_of(solver))].rstrip(":")
        if puzzle and puzzle not in puzzles:
            why = f"no {puzzle} instance here (these are {', '.join(sorted(puzzles))})"
        else:
            why = takes(solver, [puzzle] if puzzle else sorted(puzzles))
        lines.append(f"--solver {solver!r} gets no task: {why}; the run goes on without it")
    return lines
